package io.sluice.it.source;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.StartupMode;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code latest} start is resolved to a binlog position once, when Sluice's reader is given its
 * split: the first checkpoint after that holds the position, not "latest", even before the reader
 * has emitted anything. A restore from it then reads the changes written after the first start, as
 * exactly-once needs, instead of starting again at the binlog's new end.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class LatestStartCheckpointITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    private static final Duration WAIT = Duration.ofMinutes(1);

    @ParameterizedTest(name = "{0}")
    @EnumSource(DatabaseServer.Kind.class)
    void theFirstCheckpointHoldsTheResolvedStartAndARestoreReadsOnFromIt(DatabaseServer.Kind kind)
            throws Exception {
        DatabaseServer server = SERVERS.server(kind);
        String database = server.createDatabase("latest_cp", null);
        server.execute(database, "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1)");
        Source<ChangeEvent, MySqlSplit, ?> source = source(server, database);

        List<MySqlSplit> checkpoint;
        SourceReader<ChangeEvent, MySqlSplit> first = source.createReader(new Context());
        try {
            first.start();
            first.addSplits(
                    List.of(
                            new MySqlBinlogSplit(
                                    "binlog-split",
                                    BinlogOffset.ofLatest(),
                                    BinlogOffset.ofNonStopping(),
                                    List.of(),
                                    Map.of(),
                                    0)));
            // Nothing polled yet: the reader has emitted nothing.
            checkpoint = first.snapshotState(1);
        } finally {
            first.close();
        }
        BinlogOffset start = checkpoint.get(0).asBinlogSplit().getStartingOffset();
        assertThat(start.getFilename()).as("the checkpointed start %s", start).isNotEmpty();

        // Written after the first start and before the restore: the restore must read it.
        server.execute(database, "INSERT INTO t VALUES (2)");
        SourceReader<ChangeEvent, MySqlSplit> restored = source.createReader(new Context());
        try {
            restored.start();
            restored.addSplits(checkpoint);
            server.execute(database, "INSERT INTO t VALUES (3)");
            assertThat(ids(poll(restored, 2))).containsExactly("2", "3");
        } finally {
            restored.close();
        }
    }

    @SuppressWarnings("unchecked")
    private static Source<ChangeEvent, MySqlSplit, ?> source(
            DatabaseServer server, String database) {
        Configuration config = SourceConfigs.connection(server, database + ".t");
        config.set(MySqlSourceOptions.STARTUP_MODE, StartupMode.LATEST);
        return (Source<ChangeEvent, MySqlSplit, ?>)
                MySqlSourceFactory.changeEventSource(OptionSection.unprefixed(config));
    }

    /** The first {@code count} row changes the reader emits. */
    private static List<ChangeEvent> poll(SourceReader<ChangeEvent, MySqlSplit> reader, int count)
            throws Exception {
        Collected output = new Collected();
        while (output.rows.size() < count) {
            reader.isAvailable().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            InputStatus status = reader.pollNext(output);
            assertThat(status).isNotEqualTo(InputStatus.END_OF_INPUT);
        }
        return output.rows;
    }

    private static List<String> ids(List<ChangeEvent> rows) {
        List<String> ids = new ArrayList<>();
        rows.forEach(row -> ids.add(row.after().text(0)));
        return ids;
    }

    /** Keeps the row changes. */
    private static final class Collected implements ReaderOutput<ChangeEvent> {
        final List<ChangeEvent> rows = new ArrayList<>();

        @Override
        public void collect(ChangeEvent record) {
            if (record.isRow()) {
                rows.add(record);
            }
        }

        @Override
        public void collect(ChangeEvent record, long timestamp) {
            collect(record);
        }

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}

        @Override
        public SourceOutput<ChangeEvent> createOutputForSplit(String splitId) {
            return this;
        }

        @Override
        public void releaseOutputForSplit(String splitId) {}
    }

    /** Subtask 0 of 1, with no coordinator to talk to. */
    private static final class Context implements SourceReaderContext {
        @Override
        public SourceReaderMetricGroup metricGroup() {
            return UnregisteredMetricsGroup.createSourceReaderMetricGroup();
        }

        @Override
        public Configuration getConfiguration() {
            return new Configuration();
        }

        @Override
        public String getLocalHostName() {
            return "localhost";
        }

        @Override
        public int getIndexOfSubtask() {
            return 0;
        }

        @Override
        public void sendSplitRequest() {}

        @Override
        public void sendSourceEventToCoordinator(SourceEvent sourceEvent) {}

        @Override
        public UserCodeClassLoader getUserCodeClassLoader() {
            return SimpleUserCodeClassLoader.create(
                    LatestStartCheckpointITCase.class.getClassLoader());
        }

        @Override
        public int currentParallelism() {
            return 1;
        }
    }
}
