package io.sluice.functions.source.internal;

import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSourceReader;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SourceReaderBase;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.util.InstantiationUtil;

import io.debezium.relational.TableId;
import io.debezium.relational.Tables;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.ChangeEventDeserializationSchema;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The source Sluice builds gives each reader the batch emitter and, on the reader's own
 * configuration, a memoized table filter that answers as the table list says; also after the source
 * is serialized with the job. Nothing here connects to a server.
 */
class HookedMySqlSourceTest {

    private static HookedMySqlSource<ChangeEvent> source() {
        Configuration config = new Configuration();
        config.set(MySqlSourceOptions.PASSWORD, "secret");
        config.set(MySqlSourceOptions.TABLES, List.of("shop\\.order.*"));
        config.set(MySqlSourceOptions.TABLES_EXCLUDE, List.of("shop\\.order_audit"));
        return MySqlSourceFactory.source(
                OptionSection.unprefixed(config),
                new ChangeEventDeserializationSchema(ZoneId.of("UTC")));
    }

    private static Object emitterOf(MySqlSourceReader<?> reader) throws Exception {
        // Flink keeps the reader's emitter protected; this reads the one the reader really has.
        Field field = SourceReaderBase.class.getDeclaredField("recordEmitter");
        field.setAccessible(true);
        return field.get(reader);
    }

    private static Tables.TableFilter filterOf(MySqlSourceConfig config) {
        return config.getMySqlConnectorConfig().getTableFilters().dataCollectionFilter();
    }

    @Test
    void eachReaderGetsTheBatchEmitterAndAMemoizedFilterOnItsConfiguration() throws Exception {
        HookedMySqlSource<ChangeEvent> built = source();
        for (HookedMySqlSource<ChangeEvent> source :
                List.of(built, InstantiationUtil.clone(built, getClass().getClassLoader()))) {
            MySqlSourceConfig config = source.config(1);
            assertThat(filterOf(config)).isNotInstanceOf(MemoizedTableFilter.class);

            MySqlSourceReader<ChangeEvent> reader =
                    source.reader(
                            new RecordingReaderContext(new MetricListener(), 1),
                            config,
                            new SourceProgress(),
                            true);
            try {
                assertThat(emitterOf(reader)).isInstanceOf(BinlogBatchRecordEmitter.class);
            } finally {
                reader.close();
            }

            Tables.TableFilter filter = filterOf(config);
            assertThat(filter).isInstanceOf(MemoizedTableFilter.class);
            for (int i = 0; i < 2; i++) {
                assertThat(filter.isIncluded(new TableId("shop", null, "orders"))).isTrue();
                assertThat(filter.isIncluded(new TableId("shop", null, "order_audit"))).isFalse();
                assertThat(filter.isIncluded(new TableId("shop", null, "customers"))).isFalse();
                assertThat(filter.isIncluded(new TableId("other", null, "orders"))).isFalse();
            }
            assertThat(config.getTableFilter().test(new TableId("shop", null, "orders"))).isTrue();
        }
    }

    @Test
    void debeziumsQueueHandsOutWhatItHoldsWithinMilliseconds() throws Exception {
        HookedMySqlSource<ChangeEvent> built = source();
        for (HookedMySqlSource<ChangeEvent> source :
                List.of(built, InstantiationUtil.clone(built, getClass().getClassLoader()))) {
            // A snapshot chunk's reader polls this queue until the chunk's last event; Debezium's
            // default of 500 ms made it idle that long at every chunk's tail and again at its
            // close (MySqlSourceFactory.debeziumProperties).
            assertThat(source.config(0).getMySqlConnectorConfig().getPollInterval())
                    .isEqualTo(Duration.ofMillis(5));
        }
    }
}
