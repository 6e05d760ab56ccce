package io.sluice.functions.table;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RawType;

import io.sluice.functions.types.ChangeEventSerializer;
import io.sluice.serializers.event.ChangeEvent;

/**
 * The SQL column that carries a whole {@link ChangeEvent}: a {@code RAW} value backed by Sluice's
 * {@link ChangeEventSerializer}. The source puts the event there as it is and the sink encodes it
 * as it is, so a row that goes straight from source to sink costs no per-column conversion; across
 * a network shuffle it costs the same bytes as the DataStream pipeline.
 *
 * <p>In DDL the type is written {@link #SQL_TYPE}; {@code CREATE TABLE mq (...) LIKE binlog
 * (EXCLUDING ALL)} copies it into a sink table without spelling it out again.
 */
@PublicEvolving
public final class ChangeColumn {

    /** The column's logical type. */
    public static final RawType<ChangeEvent> LOGICAL_TYPE =
            new RawType<>(ChangeEvent.class, new ChangeEventSerializer());

    /** The column's data type. */
    public static final DataType DATA_TYPE =
            DataTypes.RAW(ChangeEvent.class, new ChangeEventSerializer());

    /**
     * The type as written in DDL: {@code RAW('io.sluice.serializers.event.ChangeEvent', '...')}.
     */
    public static final String SQL_TYPE = LOGICAL_TYPE.asSerializableString();

    /** The column's usual name. */
    public static final String NAME = "change";

    private ChangeColumn() {}

    /** Whether {@code type} is this column's type (nullability aside). */
    public static boolean isChangeType(LogicalType type) {
        return type.copy(true).equals(LOGICAL_TYPE);
    }
}
