package io.sluice.serializers.event;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One version of a table's columns: names, declared MySQL types (Canal's {@code mysqlType}, e.g.
 * {@code bigint(20) unsigned}), {@code java.sql.Types} codes fixed by the declared type, and which
 * columns form the primary key. Immutable, and shared by every change of that table version.
 */
public final class TableSchema {

    private final String database;
    private final String table;
    private final String[] names;
    private final String[] mysqlTypes;
    private final int[] sqlTypes;
    private final boolean[] key;
    private final int[] keyColumns;
    private final List<String> keyNames;
    private final long fingerprint;

    private TableSchema(Builder builder) {
        this.database = builder.database;
        this.table = builder.table;
        int n = builder.names.size();
        this.names = builder.names.toArray(new String[0]);
        this.mysqlTypes = builder.mysqlTypes.toArray(new String[0]);
        this.sqlTypes = new int[n];
        this.key = new boolean[n];
        List<String> keyNames = new ArrayList<>();
        int keys = 0;
        for (int i = 0; i < n; i++) {
            sqlTypes[i] = builder.sqlTypes.get(i);
            key[i] = builder.key.get(i);
            if (key[i]) {
                keys++;
                keyNames.add(names[i]);
            }
        }
        this.keyColumns = new int[keys];
        for (int i = 0, k = 0; i < n; i++) {
            if (key[i]) {
                keyColumns[k++] = i;
            }
        }
        this.keyNames = Collections.unmodifiableList(keyNames);
        this.fingerprint = computeFingerprint();
    }

    public static Builder builder(String database, String table) {
        return new Builder(database, table);
    }

    public String database() {
        return database;
    }

    public String table() {
        return table;
    }

    public int columnCount() {
        return names.length;
    }

    public String name(int column) {
        return names[column];
    }

    /** The declared type, as Canal's {@code mysqlType} writes it. */
    public String mysqlType(int column) {
        return mysqlTypes[column];
    }

    /** The {@code java.sql.Types} code of the declared type. */
    public int sqlType(int column) {
        return sqlTypes[column];
    }

    public boolean isKey(int column) {
        return key[column];
    }

    /** Primary-key column positions, in column order (Canal's {@code pkNames} order). */
    public int[] keyColumns() {
        return keyColumns.clone();
    }

    public int keyColumnCount() {
        return keyColumns.length;
    }

    public int keyColumn(int k) {
        return keyColumns[k];
    }

    /** Primary-key column names, in column order. Empty for a table without a primary key. */
    public List<String> keyNames() {
        return keyNames;
    }

    /**
     * A 64-bit hash of everything in this schema, so serializers can recognise a schema they have
     * already seen without comparing it field by field.
     */
    public long fingerprint() {
        return fingerprint;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof TableSchema)) {
            return false;
        }
        TableSchema that = (TableSchema) o;
        return database.equals(that.database)
                && table.equals(that.table)
                && Arrays.equals(names, that.names)
                && Arrays.equals(mysqlTypes, that.mysqlTypes)
                && Arrays.equals(sqlTypes, that.sqlTypes)
                && Arrays.equals(key, that.key);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(fingerprint);
    }

    private long computeFingerprint() {
        long h = 0xcbf29ce484222325L;
        h = mix(h, database);
        h = mix(h, table);
        for (int i = 0; i < names.length; i++) {
            h = mix(h, names[i]);
            h = mix(h, mysqlTypes[i]);
            h = (h ^ sqlTypes[i]) * 0x100000001b3L;
            h = (h ^ (key[i] ? 1 : 2)) * 0x100000001b3L;
        }
        return h;
    }

    /** FNV-1a over the chars, then a separator so ("ab","c") and ("a","bc") differ. */
    private static long mix(long h, String s) {
        for (int i = 0; i < s.length(); i++) {
            h = (h ^ s.charAt(i)) * 0x100000001b3L;
        }
        return (h ^ 0xffff) * 0x100000001b3L;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(database).append('.').append(table).append('(');
        for (int i = 0; i < names.length; i++) {
            out.append(i == 0 ? "" : ", ").append(names[i]).append(' ').append(mysqlTypes[i]);
            if (key[i]) {
                out.append(" key");
            }
        }
        return out.append(')').toString();
    }

    /** Builds a {@link TableSchema} column by column. */
    public static final class Builder {
        private final String database;
        private final String table;
        private final List<String> names = new ArrayList<>();
        private final List<String> mysqlTypes = new ArrayList<>();
        private final List<Integer> sqlTypes = new ArrayList<>();
        private final List<Boolean> key = new ArrayList<>();

        private Builder(String database, String table) {
            this.database = Objects.requireNonNull(database, "database must not be null");
            this.table = Objects.requireNonNull(table, "table must not be null");
        }

        /** Adds the next column. */
        public Builder column(String name, String mysqlType, int sqlType, boolean isKey) {
            Objects.requireNonNull(name, "column name must not be null");
            Objects.requireNonNull(mysqlType, "mysqlType of column '" + name + "' is null");
            if (names.contains(name)) {
                throw new IllegalArgumentException(
                        "Column '" + name + "' appears twice in " + database + "." + table);
            }
            names.add(name);
            mysqlTypes.add(mysqlType);
            sqlTypes.add(sqlType);
            key.add(isKey);
            return this;
        }

        public TableSchema build() {
            return new TableSchema(this);
        }
    }
}
