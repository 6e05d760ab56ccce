package io.sluice.functions.source.internal;

import io.debezium.relational.TableId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The collations the snapshot backfill compares string chunk keys in, one per column, kept for the
 * subtask's snapshot readers (Flink CDC builds one per chunk). A collation {@link ServerCollations}
 * cannot model is compared in Java's order, as Flink CDC compares it: Sluice's reader refuses such
 * a table before its snapshot, so only {@code flink-cdc} gets here with one.
 */
final class BackfillCollations implements BiFunction<TableId, String, CollationOrder> {

    private static final Logger LOG = LoggerFactory.getLogger(BackfillCollations.class);

    private final ServerCollations server;
    private final Map<String, Optional<CollationOrder>> columns = new HashMap<>();

    BackfillCollations(ServerCollations server) {
        this.server = server;
    }

    @Override
    public CollationOrder apply(TableId table, String column) {
        return columns.computeIfAbsent(table + "." + column, key -> load(table, column))
                .orElse(null);
    }

    private Optional<CollationOrder> load(TableId table, String column) {
        try {
            return Optional.of(server.ofColumn(table, column));
        } catch (ServerCollations.Refused e) {
            LOG.warn(
                    "The snapshot backfill compares the chunk keys of {} by '{}' in Java's order,"
                            + " not the column's collation: {}",
                    table,
                    column,
                    e.getMessage());
            return Optional.empty();
        }
    }
}
