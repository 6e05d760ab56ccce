package io.sluice.functions.source.internal;

import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSnapshotSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;

import io.debezium.relational.TableId;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.ChangeEventDeserializationSchema;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sluice's source reader asks the enumerator for a second snapshot chunk as soon as it holds a
 * single unread one, so the next chunk is there when the first is read; it asks for no more while
 * it holds two. Its split reader's attempts to read (against a port where nothing listens) fail on
 * the fetcher's thread and are not looked at.
 */
class ChunkPrefetchingSourceReaderTest {

    private static final TableId ORDERS = new TableId("shop", null, "orders");

    private static HookedMySqlSource<ChangeEvent> source() {
        Configuration config = new Configuration();
        config.set(MySqlSourceOptions.PORT, 1);
        config.set(MySqlSourceOptions.PASSWORD, "secret");
        config.set(MySqlSourceOptions.TABLES, List.of("shop\\.orders"));
        return MySqlSourceFactory.source(
                OptionSection.unprefixed(config),
                new ChangeEventDeserializationSchema(ZoneId.of("UTC")));
    }

    private static MySqlSplit chunk(int id) {
        return new MySqlSnapshotSplit(
                ORDERS,
                id,
                (RowType) DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT())).getLogicalType(),
                id == 0 ? null : new Object[] {id * 100L},
                new Object[] {(id + 1) * 100L},
                null,
                new HashMap<>());
    }

    @Test
    void holdsTheNextChunkInReserveAndNoMore() throws Exception {
        HookedMySqlSource<ChangeEvent> source = source();
        RecordingReaderContext context = new RecordingReaderContext(new MetricListener(), 0);
        var reader = source.reader(context, source.config(0), new SourceProgress(), true);
        try {
            reader.start();
            assertThat(context.splitRequests()).as("at start").isEqualTo(1);

            reader.addSplits(List.of(chunk(0)));
            assertThat(context.splitRequests()).as("one chunk held: one more asked").isEqualTo(2);

            reader.addSplits(List.of(chunk(1)));
            assertThat(context.splitRequests()).as("two chunks held").isEqualTo(2);
        } finally {
            reader.close();
        }
    }
}
