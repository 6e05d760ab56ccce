package io.sluice.it.source;

import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.StartupMode;
import io.sluice.it.server.DatabaseServer;

import java.util.List;

/** The source options the tests of this package build their sources from. */
final class SourceConfigs {

    private SourceConfigs() {}

    /** The connection to {@code server} as its CDC user, and the tables to capture. */
    static Configuration connection(DatabaseServer server, String... tables) {
        Configuration config = new Configuration();
        config.set(MySqlSourceOptions.HOSTNAME, server.host());
        config.set(MySqlSourceOptions.PORT, server.port());
        config.set(MySqlSourceOptions.USERNAME, server.cdcUser());
        config.set(MySqlSourceOptions.PASSWORD, server.cdcPassword());
        config.set(MySqlSourceOptions.TABLES, List.of(tables));
        config.set(MySqlSourceOptions.SERVER_TIME_ZONE, server.timeZone());
        return config;
    }

    /** Starts {@code config}'s source at binlog {@code file} and {@code position}. */
    static Configuration startingAt(Configuration config, String file, long position) {
        config.set(MySqlSourceOptions.STARTUP_MODE, StartupMode.BINLOG_POSITION);
        config.set(MySqlSourceOptions.STARTUP_BINLOG_FILE, file);
        config.set(MySqlSourceOptions.STARTUP_BINLOG_POSITION, position);
        return config;
    }

    /** {@code config} under {@code source.}, as in a job's YAML: messages name the keys so. */
    static OptionSection underSource(Configuration config) {
        Configuration job = new Configuration();
        config.toMap().forEach((key, value) -> job.setString("source." + key, value));
        return OptionSection.of(job, "source.");
    }
}
