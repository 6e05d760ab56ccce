package io.sluice.it.source;

import org.apache.flink.api.connector.source.mocks.MockSplitEnumeratorContext;
import org.apache.flink.cdc.connectors.mysql.source.assigners.MySqlSnapshotSplitAssigner;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.cdc.connectors.mysql.source.utils.hooks.SnapshotPhaseHooks;
import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.ChangeEventDeserializationSchema;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.internal.StatementHookSplitReader;
import io.sluice.functions.source.internal.StatementTimes;
import io.sluice.it.server.DatabaseServer;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Flink CDC's snapshot pieces outside a job, for tests that drive its split reader themselves: the
 * source config Sluice builds for one table, Sluice's split reader, and the table's chunks as Flink
 * CDC's enumerator cuts them.
 */
final class SnapshotChunks {

    private SnapshotChunks() {}

    /** Sluice's source config for {@code database.table}, chunks of {@code chunkSize} rows. */
    static MySqlSourceConfig config(
            DatabaseServer server, String database, String table, int chunkSize) {
        Configuration options = new Configuration();
        options.set(MySqlSourceOptions.HOSTNAME, server.host());
        options.set(MySqlSourceOptions.PORT, server.port());
        options.set(MySqlSourceOptions.USERNAME, server.cdcUser());
        options.set(MySqlSourceOptions.PASSWORD, server.cdcPassword());
        options.set(MySqlSourceOptions.TABLES, List.of(database + "." + table));
        options.set(MySqlSourceOptions.SNAPSHOT_CHUNK_SIZE, chunkSize);
        return MySqlSourceFactory.source(
                        OptionSection.unprefixed(options),
                        new ChangeEventDeserializationSchema(ZoneId.of("UTC")))
                .config(0);
    }

    /** Sluice's split reader for subtask 0 with {@code hooks}, as the source builds it. */
    static StatementHookSplitReader splitReader(
            MySqlSourceConfig config, SnapshotPhaseHooks hooks) {
        return new StatementHookSplitReader(
                config,
                0,
                new MySqlSourceReaderContext(null),
                new StatementTimes(),
                hooks,
                List.of());
    }

    /** The table's chunks, as Flink CDC's enumerator cuts them. */
    static List<MySqlSplit> cut(MySqlSourceConfig config) throws Exception {
        List<MySqlSplit> splits = new ArrayList<>();
        MockSplitEnumeratorContext<MySqlSplit> context = new MockSplitEnumeratorContext<>(1);
        MySqlSnapshotSplitAssigner assigner =
                new MySqlSnapshotSplitAssigner(config, 1, new ArrayList<>(), false, context);
        try {
            assigner.open();
            for (Optional<MySqlSplit> next = assigner.getNext();
                    next.isPresent();
                    next = assigner.getNext()) {
                splits.add(next.get());
            }
        } finally {
            assigner.close();
            context.close();
        }
        return splits;
    }
}
