package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;

import io.debezium.relational.RelationalTableFilters;
import io.debezium.relational.TableId;
import io.debezium.relational.Tables;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A table filter that asks the filter it wraps once per table. Debezium asks its filter for every
 * binlog row, and the filter Flink CDC builds from the table list matches each row's table name
 * against the list's regular expressions: about 7 % of the binlog thread's samples. The answer
 * depends only on the table's name, so it is kept. Beyond {@code maxTables} distinct tables the
 * rest are asked every time, so a server with very many tables does not grow the map without end.
 * Thread-safe: snapshot readers and the binlog reader may share one source configuration.
 */
@Internal
public final class MemoizedTableFilter implements Tables.TableFilter {

    /** Distinct tables whose answer is kept, per source configuration. */
    public static final int MAX_TABLES = 10_000;

    private final Tables.TableFilter filter;
    private final int maxTables;
    private final Map<TableId, Boolean> answers = new ConcurrentHashMap<>();

    public MemoizedTableFilter(Tables.TableFilter filter, int maxTables) {
        if (maxTables < 1) {
            throw new IllegalArgumentException(
                    "A memoized table filter needs room for at least 1 table, not " + maxTables);
        }
        this.filter = filter;
        this.maxTables = maxTables;
    }

    /** Replaces {@code config}'s table filter with a memoized one that answers as it did. */
    public static void install(MySqlSourceConfig config) {
        RelationalTableFilters filters = config.getMySqlConnectorConfig().getTableFilters();
        filters.setDataCollectionFilters(
                new MemoizedTableFilter(filters.dataCollectionFilter(), MAX_TABLES));
    }

    @Override
    public boolean isIncluded(TableId table) {
        Boolean known = answers.get(table);
        if (known != null) {
            return known;
        }
        boolean included = filter.isIncluded(table);
        if (answers.size() < maxTables) {
            answers.put(table, included);
        }
        return included;
    }

    /** Tables whose answer is kept. */
    int size() {
        return answers.size();
    }
}
