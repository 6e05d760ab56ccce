package io.sluice.functions.filter;

import org.apache.flink.annotation.PublicEvolving;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;

import java.util.Locale;

/** The kinds of change {@link FilterOptions#TYPES} lets through. */
@PublicEvolving
public enum ChangeKind {
    INSERT,
    UPDATE,
    DELETE,
    /** Every DDL statement (CREATE, ALTER, DROP, TRUNCATE, RENAME, index changes). */
    DDL,
    /**
     * The QUERY message with a DML statement's text that precedes its rows when the binlog carries
     * rows-query events (Canal's {@code filter.query.dml}).
     */
    QUERY;

    /** The configuration value (Flink parses any case). */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind of {@code change}. */
    public static ChangeKind of(ChangeEvent change) {
        ChangeType type = change.type();
        switch (type) {
            case INSERT:
                return INSERT;
            case UPDATE:
                return UPDATE;
            case DELETE:
                return DELETE;
            default:
                return change.isDdl() ? DDL : QUERY;
        }
    }
}
