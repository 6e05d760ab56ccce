package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfigFactory;

import io.debezium.relational.RelationalTableFilters;

/**
 * The configuration factory of a built {@code MySqlSource}, whose configurations filter tables
 * through a {@link MemoizedTableFilter}. It only delegates: every setting stays in the wrapped
 * factory, and the source calls nothing but {@code createConfig}. The filter is replaced before any
 * reader exists, so Debezium's dispatcher and schema, which take it when a reader starts, both see
 * the memoized one.
 */
@Internal
public final class MemoizedFilterConfigFactory extends MySqlSourceConfigFactory {

    private static final long serialVersionUID = 1L;

    /** Distinct tables whose answer is kept, per configuration. */
    static final int MAX_TABLES = 10_000;

    private final MySqlSourceConfigFactory factory;

    public MemoizedFilterConfigFactory(MySqlSourceConfigFactory factory) {
        this.factory = factory;
    }

    @Override
    public MySqlSourceConfig createConfig(int subtaskId) {
        return memoized(factory.createConfig(subtaskId));
    }

    @Override
    public MySqlSourceConfig createConfig(int subtaskId, String serverName) {
        return memoized(factory.createConfig(subtaskId, serverName));
    }

    private static MySqlSourceConfig memoized(MySqlSourceConfig config) {
        RelationalTableFilters filters = config.getMySqlConnectorConfig().getTableFilters();
        filters.setDataCollectionFilters(
                new MemoizedTableFilter(filters.dataCollectionFilter(), MAX_TABLES));
        return config;
    }
}
