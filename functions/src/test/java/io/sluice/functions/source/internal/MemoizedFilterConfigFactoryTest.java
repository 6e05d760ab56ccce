package io.sluice.functions.source.internal;

import org.apache.flink.cdc.connectors.mysql.source.MySqlSource;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfigFactory;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.util.InstantiationUtil;

import io.debezium.relational.TableId;
import io.debezium.relational.Tables;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The source Sluice builds hands its readers and enumerator configurations whose table filter is
 * memoized, with every other setting from the builder, and it still serializes with the job.
 */
class MemoizedFilterConfigFactoryTest {

    private static MySqlSource<ChangeEvent> source() {
        Configuration config = new Configuration();
        config.set(MySqlSourceOptions.HOSTNAME, "db.example");
        config.set(MySqlSourceOptions.PORT, 3307);
        config.set(MySqlSourceOptions.PASSWORD, "secret");
        config.set(MySqlSourceOptions.TABLES, List.of("shop\\.order.*"));
        config.set(MySqlSourceOptions.TABLES_EXCLUDE, List.of("shop\\.order_audit"));
        return MySqlSourceFactory.changeEventSource(config);
    }

    private static Tables.TableFilter filterOf(MySqlSourceConfig config) {
        return config.getMySqlConnectorConfig().getTableFilters().dataCollectionFilter();
    }

    @Test
    void everyConfigurationFiltersThroughTheMemoAsTheTableListSays() throws Exception {
        MySqlSourceConfigFactory factory = source().getConfigFactory();
        assertThat(factory).isInstanceOf(MemoizedFilterConfigFactory.class);

        MySqlSourceConfigFactory restored =
                InstantiationUtil.clone(factory, getClass().getClassLoader());
        for (MySqlSourceConfig config :
                List.of(
                        factory.createConfig(1),
                        factory.createConfig(0, "enumerator"),
                        restored.createConfig(0))) {
            assertThat(config.getHostname()).isEqualTo("db.example");
            assertThat(config.getPort()).isEqualTo(3307);
            Tables.TableFilter filter = filterOf(config);
            assertThat(filter).isInstanceOf(MemoizedTableFilter.class);
            for (int i = 0; i < 2; i++) {
                assertThat(filter.isIncluded(new TableId("shop", null, "orders"))).isTrue();
                assertThat(filter.isIncluded(new TableId("shop", null, "order_audit"))).isFalse();
                assertThat(filter.isIncluded(new TableId("shop", null, "customers"))).isFalse();
                assertThat(filter.isIncluded(new TableId("other", null, "orders"))).isFalse();
            }
            assertThat(config.getTableFilter().test(new TableId("shop", null, "orders"))).isTrue();
            assertThat(((MemoizedTableFilter) filter).size()).isEqualTo(4);
        }
    }
}
