package io.sluice.functions.source.internal;

import org.apache.flink.cdc.connectors.mysql.debezium.reader.BinlogSplitReader;
import org.apache.flink.cdc.connectors.mysql.debezium.reader.SnapshotSplitReader;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSplitReader;

import java.lang.reflect.Field;

/**
 * The private fields of Flink CDC 3.5's readers that Sluice reads or sets, in one place: each is
 * looked up once, and a Flink CDC without it fails the class's loading, naming the field.
 */
final class FlinkCdcFields {

    /** The binlog split reader {@link MySqlSplitReader} reuses, built privately on first use. */
    static final Field BINLOG_READER =
            field(
                    MySqlSplitReader.class,
                    "reusedBinlogReader",
                    BinlogSplitReader.class,
                    "Sluice's binlog statement hook");

    /** The snapshot split reader {@link MySqlSplitReader} reuses, built privately on first use. */
    static final Field SNAPSHOT_READER =
            field(
                    MySqlSplitReader.class,
                    "reusedSnapshotReader",
                    SnapshotSplitReader.class,
                    "Sluice's snapshot backfill");

    /** The failure of a snapshot split reader's read task, which its polling rethrows. */
    static final Field SNAPSHOT_READ_EXCEPTION =
            field(
                    SnapshotSplitReader.class,
                    "readException",
                    Throwable.class,
                    "Sluice's snapshot backfill");

    private FlinkCdcFields() {}

    static Object get(Field field, Object owner) {
        try {
            return field.get(owner);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot read Flink CDC's field " + field, e);
        }
    }

    static void set(Field field, Object owner, Object value) {
        try {
            field.set(owner, value);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot set Flink CDC's field " + field, e);
        }
    }

    private static Field field(Class<?> owner, String name, Class<?> type, String user) {
        try {
            Field field = owner.getDeclaredField(name);
            if (!field.getType().isAssignableFrom(type)) {
                throw new NoSuchFieldException(name + " of type " + type.getName());
            }
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(
                    String.format(
                            "Flink CDC's %s has no '%s' field of type %s: %s is written for"
                                    + " Flink CDC 3.5",
                            owner.getSimpleName(), name, type.getSimpleName(), user),
                    e);
        }
    }
}
