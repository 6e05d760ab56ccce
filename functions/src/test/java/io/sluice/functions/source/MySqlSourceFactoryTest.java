package io.sluice.functions.source;

import org.apache.flink.cdc.connectors.mysql.table.StartupMode;
import org.apache.flink.cdc.connectors.mysql.table.StartupOptions;
import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.OptionSection;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MySqlSourceFactoryTest {

    /** {@code options} as the YAML door gives them: under 'source.', errors naming full keys. */
    private static OptionSection source(Configuration options) {
        Configuration job = new Configuration();
        options.toMap().forEach((key, value) -> job.setString("source." + key, value));
        return OptionSection.of(job, "source.");
    }

    private static OptionSection tables(
            java.util.List<String> includes, java.util.List<String> excludes) {
        Configuration options = new Configuration();
        options.set(MySqlSourceOptions.TABLES, includes);
        options.set(MySqlSourceOptions.TABLES_EXCLUDE, excludes);
        return source(options);
    }

    private static Configuration mode(String mode) {
        Configuration config = new Configuration();
        config.setString(MySqlSourceOptions.STARTUP_MODE.key(), mode);
        return config;
    }

    @Test
    void eachModeMapsToItsStartPoint() {
        assertThat(MySqlSourceFactory.startupOptions(source(new Configuration())).startupMode)
                .isEqualTo(StartupMode.INITIAL);
        assertThat(MySqlSourceFactory.startupOptions(source(mode("latest"))).startupMode)
                .isEqualTo(StartupMode.LATEST_OFFSET);

        Configuration timestamp = mode("timestamp");
        timestamp.set(MySqlSourceOptions.STARTUP_TIMESTAMP, 1_700_000_000_000L);
        assertThat(MySqlSourceFactory.startupOptions(source(timestamp)).startupMode)
                .isEqualTo(StartupMode.TIMESTAMP);

        Configuration position = mode("binlog-position");
        position.set(MySqlSourceOptions.STARTUP_BINLOG_FILE, "mysql-bin.000003");
        position.set(MySqlSourceOptions.STARTUP_BINLOG_POSITION, 4L);
        StartupOptions fromPosition = MySqlSourceFactory.startupOptions(source(position));
        assertThat(fromPosition.startupMode).isEqualTo(StartupMode.SPECIFIC_OFFSETS);
        assertThat(fromPosition.binlogOffset.getFilename()).isEqualTo("mysql-bin.000003");
        assertThat(fromPosition.binlogOffset.getPosition()).isEqualTo(4L);

        Configuration gtid = mode("gtid");
        gtid.set(MySqlSourceOptions.STARTUP_GTID_SET, "0-1-42");
        assertThat(MySqlSourceFactory.startupOptions(source(gtid)).binlogOffset.getGtidSet())
                .isEqualTo("0-1-42");
    }

    @Test
    void sluicesReaderTakesEveryStartupMode() {
        Configuration gtid = readerOptions("sluice");
        gtid.setString(MySqlSourceOptions.STARTUP_MODE.key(), "gtid");
        gtid.set(MySqlSourceOptions.STARTUP_GTID_SET, "0-1-42");
        assertThat(MySqlSourceFactory.changeEventSource(source(gtid))).isNotNull();

        Configuration initial = readerOptions("sluice");
        assertThat(MySqlSourceFactory.changeEventSource(source(initial))).isNotNull();

        Configuration queries = readerOptions("sluice");
        queries.setString(MySqlSourceOptions.STARTUP_MODE.key(), "latest");
        queries.set(MySqlSourceOptions.INCLUDE_QUERIES, true);
        assertThat(MySqlSourceFactory.changeEventSource(source(queries))).isNotNull();

        Configuration latest = readerOptions("sluice");
        latest.setString(MySqlSourceOptions.STARTUP_MODE.key(), "latest");
        assertThat(MySqlSourceFactory.changeEventSource(source(latest))).isNotNull();
        assertThat(MySqlSourceFactory.changeEventSource(source(readerOptions("flink-cdc"))))
                .isNotNull();
        assertThat(readerOptions("flink-cdc").get(MySqlSourceOptions.READER))
                .isEqualTo(SourceReaderKind.FLINK_CDC);
        assertThat(new Configuration().get(MySqlSourceOptions.READER))
                .isEqualTo(SourceReaderKind.SLUICE);
    }

    private static Configuration readerOptions(String reader) {
        Configuration options = new Configuration();
        options.set(MySqlSourceOptions.PASSWORD, "secret");
        options.set(MySqlSourceOptions.TABLES, java.util.List.of("shop.orders"));
        options.setString(MySqlSourceOptions.READER.key(), reader);
        return options;
    }

    @Test
    void theSignalTableIsSluicesReadersAndNamedAsDatabaseDotTable() {
        Configuration sluice = readerOptions("sluice");
        sluice.set(MySqlSourceOptions.SIGNAL_TABLE, "shop.sluice_signal");
        assertThat(MySqlSourceFactory.changeEventSource(source(sluice))).isNotNull();

        Configuration flinkCdc = readerOptions("flink-cdc");
        flinkCdc.set(MySqlSourceOptions.SIGNAL_TABLE, "shop.sluice_signal");
        assertThatThrownBy(() -> MySqlSourceFactory.changeEventSource(source(flinkCdc)))
                .hasMessageContaining("'source.signal.table' needs 'source.reader' = 'sluice'")
                .hasMessageContaining("but it is 'flink-cdc'");

        Configuration unqualified = readerOptions("sluice");
        unqualified.set(MySqlSourceOptions.SIGNAL_TABLE, "sluice_signal");
        assertThatThrownBy(() -> MySqlSourceFactory.changeEventSource(source(unqualified)))
                .hasMessageContaining("'source.signal.table' names the signal table as")
                .hasMessageContaining("got 'sluice_signal'");
    }

    @Test
    void missingCompanionOptionIsNamedWithTheMode() {
        assertThatThrownBy(() -> MySqlSourceFactory.startupOptions(source(mode("binlog-position"))))
                .hasMessageContaining("Option 'source.startup.binlog-file'")
                .hasMessageContaining("'binlog-position' startup mode");
        assertThatThrownBy(() -> MySqlSourceFactory.startupOptions(source(mode("gtid"))))
                .hasMessageContaining("Option 'source.startup.gtid-set'");
        assertThatThrownBy(() -> MySqlSourceFactory.startupOptions(source(mode("sometime"))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aStallTimeoutSpansSeveralHeartbeats() {
        assertThat(MySqlSourceFactory.stallTimeout(source(new Configuration())))
                .isEqualTo(Duration.ofMinutes(5));
        Configuration off = new Configuration();
        off.set(MySqlSourceOptions.STALL_TIMEOUT, Duration.ZERO);
        off.set(MySqlSourceOptions.HEARTBEAT_INTERVAL, Duration.ZERO);
        assertThat(MySqlSourceFactory.stallTimeout(source(off))).isZero();

        Configuration tooShort = new Configuration();
        tooShort.set(MySqlSourceOptions.STALL_TIMEOUT, Duration.ofSeconds(60));
        tooShort.set(MySqlSourceOptions.HEARTBEAT_INTERVAL, Duration.ofSeconds(30));
        assertThatThrownBy(() -> MySqlSourceFactory.stallTimeout(source(tooShort)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Option 'source.stall-timeout'")
                .hasMessageContaining("three times 'source.heartbeat-interval' (PT30S)")
                .hasMessageContaining("but is PT1M");

        Configuration noHeartbeat = new Configuration();
        noHeartbeat.set(MySqlSourceOptions.HEARTBEAT_INTERVAL, Duration.ZERO);
        assertThatThrownBy(() -> MySqlSourceFactory.stallTimeout(source(noHeartbeat)))
                .hasMessageContaining("Option 'source.stall-timeout' must be 0 (off)");
    }

    @Test
    void theServerSendsAHeartbeatEveryHeartbeatInterval() {
        Configuration config = new Configuration();
        config.set(MySqlSourceOptions.HEARTBEAT_INTERVAL, Duration.ofSeconds(4));
        // The binlog client asks for a server heartbeat every 0.8 keep-alive intervals.
        assertThat(MySqlSourceFactory.debeziumProperties(source(config)))
                .containsEntry("connect.keep.alive.interval.ms", "5000");
    }

    @Test
    void queriesAskDebeziumForRowsQueryEventsOnlyWhenIncluded() {
        Configuration on = new Configuration();
        on.set(MySqlSourceOptions.INCLUDE_QUERIES, true);

        assertThat(MySqlSourceFactory.debeziumProperties(source(new Configuration())))
                .doesNotContainKey("include.query")
                .containsEntry("decimal.handling.mode", "precise");
        assertThat(MySqlSourceFactory.debeziumProperties(source(on)))
                .containsEntry("include.query", "true")
                .containsEntry("decimal.handling.mode", "precise");
    }

    @Test
    void excludesGuardEveryInclude() {
        String[] filters =
                MySqlSourceFactory.tableFilters(
                        tables(
                                java.util.List.of("shop\\..*"),
                                java.util.List.of("shop\\.audit_.*", "shop.tmp")));

        java.util.regex.Pattern filter = java.util.regex.Pattern.compile(filters[0]);
        assertThat(filter.matcher("shop.orders").matches()).isTrue();
        assertThat(filter.matcher("shop.audit_2024").matches()).isFalse();
        assertThat(filter.matcher("shop.tmp").matches()).isFalse();
        assertThat(filter.matcher("shop.tmp2").matches()).isTrue();
    }

    @Test
    void badExcludeRegexNamesTheOptionAndValue() {
        assertThatThrownBy(
                        () ->
                                MySqlSourceFactory.tableFilters(
                                        tables(
                                                java.util.List.of("shop.*"),
                                                java.util.List.of("shop.("))))
                .hasMessageContaining("'source.tables-exclude'")
                .hasMessageContaining("'shop.('");
    }
}
