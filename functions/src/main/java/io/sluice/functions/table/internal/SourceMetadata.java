package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The readable metadata columns of a {@code sluice-mysql} table. Each is computed only when a query
 * uses it: the planner pushes the used keys down.
 */
@Internal
public enum SourceMetadata {
    DATABASE("database", DataTypes.STRING().notNull()) {
        @Override
        Object read(ChangeEvent change, SchemaStrings strings) {
            return strings.of(change.schema()).database;
        }
    },
    TABLE("table", DataTypes.STRING().notNull()) {
        @Override
        Object read(ChangeEvent change, SchemaStrings strings) {
            return strings.of(change.schema()).table;
        }
    },
    TYPE("type", DataTypes.STRING().notNull()) {
        @Override
        Object read(ChangeEvent change, SchemaStrings strings) {
            return SchemaStrings.TYPES[change.type().ordinal()];
        }
    },
    IS_DDL("is_ddl", DataTypes.BOOLEAN().notNull()) {
        @Override
        Object read(ChangeEvent change, SchemaStrings strings) {
            return change.isDdl();
        }
    },
    EXECUTE_TIME("es", DataTypes.TIMESTAMP_LTZ(3).notNull()) {
        @Override
        Object read(ChangeEvent change, SchemaStrings strings) {
            return TimestampData.fromEpochMillis(change.executeTime());
        }
    },
    GTID("gtid", DataTypes.STRING()) {
        @Override
        Object read(ChangeEvent change, SchemaStrings strings) {
            return change.gtid().isEmpty() ? null : StringData.fromString(change.gtid());
        }
    },
    PK_NAMES("pk_names", DataTypes.ARRAY(DataTypes.STRING().notNull()).notNull()) {
        @Override
        Object read(ChangeEvent change, SchemaStrings strings) {
            return strings.of(change.schema()).keyNames;
        }
    },
    SQL("sql", DataTypes.STRING()) {
        @Override
        Object read(ChangeEvent change, SchemaStrings strings) {
            return change.isDdl() ? StringData.fromString(change.sql()) : null;
        }
    },
    DATA("data", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.STRING())) {
        @Override
        Object read(ChangeEvent change, SchemaStrings strings) {
            RowImage row = change.data();
            if (row == null) {
                return null;
            }
            StringData[] names = strings.of(change.schema()).columns;
            Map<Object, Object> map = new LinkedHashMap<>(names.length * 2);
            for (int i = 0; i < names.length; i++) {
                map.put(names[i], text(row, i));
            }
            return new GenericMapData(map);
        }
    },
    OLD("old", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.STRING())) {
        @Override
        Object read(ChangeEvent change, SchemaStrings strings) {
            if (change.before() == null || change.after() == null) {
                return null;
            }
            StringData[] names = strings.of(change.schema()).columns;
            Map<Object, Object> map = new HashMap<>();
            for (int i = 0; i < names.length; i++) {
                if (change.isUpdated(i)) {
                    map.put(names[i], text(change.before(), i));
                }
            }
            return new GenericMapData(map);
        }
    },
    BINLOG_FILE("binlog_file", DataTypes.STRING()) {
        @Override
        Object read(ChangeEvent change, SchemaStrings strings) {
            return change.binlogFile().isEmpty()
                    ? null
                    : StringData.fromString(change.binlogFile());
        }
    },
    BINLOG_POSITION("binlog_position", DataTypes.BIGINT().notNull()) {
        @Override
        Object read(ChangeEvent change, SchemaStrings strings) {
            return change.binlogPosition();
        }
    };

    private final String key;
    private final DataType type;

    SourceMetadata(String key, DataType type) {
        this.key = key;
        this.type = type;
    }

    public String key() {
        return key;
    }

    public DataType type() {
        return type;
    }

    /** The value in Flink's internal form. */
    abstract Object read(ChangeEvent change, SchemaStrings strings);

    /** The metadata column named {@code key}; the planner only asks for listed keys. */
    public static SourceMetadata of(String key) {
        for (SourceMetadata m : values()) {
            if (m.key.equals(key)) {
                return m;
            }
        }
        throw new IllegalArgumentException("No sluice-mysql metadata column '" + key + "'");
    }

    /** A value's text without decoding it: the string shares the image's UTF-8 bytes. */
    private static StringData text(RowImage row, int column) {
        return row.isNull(column)
                ? null
                : StringData.fromBytes(row.utf8(), row.start(column), row.length(column));
    }
}
