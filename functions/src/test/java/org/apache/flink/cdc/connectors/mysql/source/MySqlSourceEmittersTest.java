package org.apache.flink.cdc.connectors.mysql.source;

import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.metrics.MySqlSourceReaderMetrics;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.InstantiationUtil;

import io.debezium.relational.TableId;
import io.debezium.relational.Tables;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.ChangeEventDeserializationSchema;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.internal.BinlogBatchRecordEmitter;
import io.sluice.functions.source.internal.MemoizedTableFilter;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.time.ZoneId;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The source Sluice builds gives each reader the batch emitter and, on the reader's own
 * configuration, a memoized table filter that answers as the table list says; also after the source
 * is serialized with the job.
 */
class MySqlSourceEmittersTest {

    private static MySqlSource<ChangeEvent> source() {
        Configuration config = new Configuration();
        config.set(MySqlSourceOptions.PASSWORD, "secret");
        config.set(MySqlSourceOptions.TABLES, List.of("shop\\.order.*"));
        config.set(MySqlSourceOptions.TABLES_EXCLUDE, List.of("shop\\.order_audit"));
        return MySqlSourceFactory.source(
                OptionSection.unprefixed(config),
                new ChangeEventDeserializationSchema(ZoneId.of("UTC")));
    }

    @SuppressWarnings("unchecked")
    private static MySqlSource.RecordEmitterSupplier<ChangeEvent> emitters(
            MySqlSource<ChangeEvent> source) throws Exception {
        // The source keeps the supplier private; this reads the one the built source really has.
        Field field = MySqlSource.class.getDeclaredField("recordEmitterSupplier");
        field.setAccessible(true);
        return (MySqlSource.RecordEmitterSupplier<ChangeEvent>) field.get(source);
    }

    private static Tables.TableFilter filterOf(MySqlSourceConfig config) {
        return config.getMySqlConnectorConfig().getTableFilters().dataCollectionFilter();
    }

    @Test
    void eachReaderGetsTheBatchEmitterAndAMemoizedFilterOnItsConfiguration() throws Exception {
        MySqlSource<ChangeEvent> built = source();
        for (MySqlSource<ChangeEvent> source :
                List.of(built, InstantiationUtil.clone(built, getClass().getClassLoader()))) {
            MySqlSourceConfig config = source.getConfigFactory().createConfig(1);
            assertThat(filterOf(config)).isNotInstanceOf(MemoizedTableFilter.class);

            assertThat(
                            emitters(source)
                                    .get(
                                            new MySqlSourceReaderMetrics(
                                                    new UnregisteredMetricsGroup()),
                                            config))
                    .isInstanceOf(BinlogBatchRecordEmitter.class);

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
}
