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
 * <p>Nobody needs to write the type: the tables of a Sluice catalog ({@code 'type' = 'sluice'})
 * have the column, and {@code CREATE TABLE mq (...) LIKE cdc.<database>.changes (EXCLUDING ALL)}
 * copies it into a sink table. A {@code CREATE TABLE ... WITH ('connector' = 'sluice-mysql')}
 * declares it as {@link #SQL_TYPE}, which still works.
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

    /** The column's type in words, for messages (the full type string is long and opaque). */
    public static final String DESCRIPTION =
            "RAW('" + ChangeEvent.class.getName() + "', ...) as a Sluice catalog's tables have it";

    /** The column's usual name. */
    public static final String NAME = "change";

    private ChangeColumn() {}

    /** Whether {@code type} is this column's type (nullability aside). */
    public static boolean isChangeType(LogicalType type) {
        return type.copy(true).equals(LOGICAL_TYPE);
    }
}
