package io.sluice.it.source;

import io.sluice.it.server.DatabaseServer;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.assertj.core.api.SoftAssertions;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The table {@code ddl/all_types.sql} and what Canal writes for each of its columns, shared by the
 * tests that read it through a Sluice reader ({@link ChangeEventConversionITCase} for both readers,
 * {@code RowsEventDecoderITCase} for Sluice's own binlog decoder).
 */
final class AllTypes {

    private AllTypes() {}

    /**
     * The columns of all_types in table order: name, Canal's sqlType (fixed per declared type), and
     * the text Canal writes for seed rows 1, 2 and 4 (row 3 is NULL but for its id). Where Sluice
     * differs from Canal on purpose, a comment says so; where Debezium differs (in snapshot reads,
     * or in the Flink CDC reader's binlog: {@link #flinkCdcBinlogRow}), the test adjusts.
     */
    static final Column[] COLUMNS = {
        column("id", Types.INTEGER, "1", "2", "4"),
        column("c_tinyint", Types.TINYINT, "-128", "127", "5"),
        column("c_tinyint_u", Types.TINYINT, "0", "255", "128"),
        column("c_bool", Types.TINYINT, "0", "1", "0"),
        column("c_smallint", Types.SMALLINT, "-32768", "32767", "5"),
        column("c_smallint_u", Types.SMALLINT, "0", "65535", "32768"),
        column("c_mediumint", Types.INTEGER, "-8388608", "8388607", "5"),
        column("c_mediumint_u", Types.INTEGER, "0", "16777215", "8388608"),
        column("c_int", Types.INTEGER, "-2147483648", "2147483647", "5"),
        column("c_int_u", Types.INTEGER, "0", "4294967295", "2147483648"),
        column("c_bigint", Types.BIGINT, "-9223372036854775808", "9223372036854775807", "5"),
        column("c_bigint_u", Types.BIGINT, "0", "18446744073709551615", "9223372036854775808"),
        column("c_int_zf", Types.INTEGER, "0", "42", "7"),
        // Sluice keeps the declared scale: Canal writes 10.0 and 0.0.
        column("c_decimal", Types.DECIMAL, "-99999999.99", "10.00", "0.00"),
        column("c_decimal0", Types.DECIMAL, "-5", "9999999999", "0"),
        column(
                "c_decimal_big",
                Types.DECIMAL,
                "-1234567890123456789012345678.0123456789",
                "1234567890123456789012345678.0123456789",
                "0.0000000001"),
        column("c_float", Types.REAL, "-3.4028235E38", "0.1", "1.0E-5"),
        column("c_double", Types.DOUBLE, "-1.7976931348623157E308", "0.001", "1.0E7"),
        column("c_bit1", Types.BIT, "0", "1", "0"),
        column("c_bit10", Types.BIT, "1", "682", "1023"),
        column("c_bit64", Types.BIT, "0", "18446744073709551615", "1"),
        column("c_year", Types.VARCHAR, "1901", "2155", "0000"),
        // Zero and partly-zero dates as stored; the Flink CDC reader writes NULL for them.
        column("c_date", Types.DATE, "1000-01-01", "9999-12-31", "0000-00-00"),
        column("c_time", Types.TIME, "-838:59:59", "838:59:59", "00:00:00"),
        column("c_time6", Types.TIME, "-838:59:59.000000", "12:00:00.000001", "-00:00:00.500000"),
        column(
                "c_datetime",
                Types.TIMESTAMP,
                "1000-01-01 00:00:00",
                "9999-12-31 23:59:59",
                "0000-00-00 00:00:00"),
        column(
                "c_datetime3",
                Types.TIMESTAMP,
                "1000-01-01 00:00:00.000",
                "2024-02-29 23:59:59.123",
                "0000-00-00 00:00:00.000"),
        column(
                "c_datetime6",
                Types.TIMESTAMP,
                "1000-01-01 00:00:00.000000",
                "2024-02-29 23:59:59.123456",
                "2020-00-00 00:00:00.000000"),
        // In Asia/Shanghai (+08:00); the zero TIMESTAMP as Canal writes it.
        column(
                "c_timestamp",
                Types.TIMESTAMP,
                "1970-01-01 08:00:01",
                "2038-01-19 11:14:07",
                "0000-00-00 00:00:00"),
        column(
                "c_timestamp3",
                Types.TIMESTAMP,
                "1970-01-01 08:00:01.000",
                "2024-03-01 07:59:59.120",
                "0000-00-00 00:00:00.000"),
        column("c_char", Types.CHAR, "", "abc", "ab"),
        column("c_varchar", Types.VARCHAR, "", "héllo 😀", "x"),
        // latin1 decoded with its own charset: Canal writes U+FFFD for the é.
        column("c_latin1", Types.VARCHAR, "", "café", "x"),
        column("c_tinytext", Types.CLOB, "", "tiny", "x"),
        column("c_text", Types.CLOB, "", "text ✓", "x"),
        column("c_mediumtext", Types.CLOB, "", "medium", "x"),
        column("c_longtext", Types.CLOB, "", "long", "x"),
        // One ISO-8859-1 char per byte; BINARY(n) comes padded with zero bytes.
        column("c_binary", Types.BLOB, "\0\0\0\0", "\u0000\u00ff\u007f\u0080", "ab\0\0"),
        column("c_varbinary", Types.BLOB, "", "\u00de\u00ad\u00be\u00ef\u0000", "\u0000"),
        column("c_tinyblob", Types.BLOB, "", "\u0001", ""),
        column("c_blob", Types.BLOB, "", "\u00c3\u00a9", ""),
        column("c_mediumblob", Types.BLOB, "", "\u0000", ""),
        column("c_longblob", Types.BLOB, "", "\u00ff", ""),
        column("c_enum", Types.INTEGER, "1", "2", "0"),
        column("c_set", Types.BIT, "0", "5", "0"),
        // JSON is LONGTEXT on MariaDB: the text as stored, and a text column's sqlType.
        column("c_json", Types.CLOB, "[]", "{\"a\": 1, \"b\": [1, 2]}", "{}"),
        column("c_default", Types.VARCHAR, "x", "dflt", "x"),
    };

    /**
     * What the Flink CDC reader writes from the binlog for a copy, with id {@code id}, of seed row
     * {@code seed}: Canal's text but where {@link ReaderDifferences#CORRECTIONS} lists a value
     * Debezium gets wrong (Sluice's own reader writes Canal's text there).
     */
    static String[] flinkCdcBinlogRow(int seed, int id) {
        String[] row = seedRow(seed);
        row[0] = String.valueOf(id);
        for (ReaderDifferences.Correction correction : ReaderDifferences.CORRECTIONS) {
            int i = index(correction.column());
            if (row[i] != null && row[i].equals(correction.sluice())) {
                row[i] = correction.flinkCdc();
            }
        }
        return row;
    }

    /** What Canal writes for seed row {@code id} of ddl/all_types.sql. */
    static String[] seedRow(int id) {
        String[] row = new String[COLUMNS.length];
        if (id == 3) {
            row[0] = "3";
            return row;
        }
        int seed = id == 1 ? 0 : id == 2 ? 1 : 2;
        for (int i = 0; i < COLUMNS.length; i++) {
            row[i] = COLUMNS[i].seeds[seed];
        }
        return row;
    }

    static void checkSchema(
            SoftAssertions softly,
            TableSchema schema,
            String database,
            Map<String, String> columnTypes,
            String phase) {
        checkSchema(softly, DatabaseServer.Kind.MARIADB, schema, database, columnTypes, phase);
    }

    /** As read from a server of {@code kind}: MySQL's JSON is {@code json}, sqlType 12. */
    static void checkSchema(
            SoftAssertions softly,
            DatabaseServer.Kind kind,
            TableSchema schema,
            String database,
            Map<String, String> columnTypes,
            String phase) {
        softly.assertThat(schema.database()).as("%s database", phase).isEqualTo(database);
        softly.assertThat(schema.table()).as("%s table", phase).isEqualTo("all_types");
        softly.assertThat(schema.columnCount()).as("%s columns", phase).isEqualTo(COLUMNS.length);
        softly.assertThat(schema.keyNames()).as("%s key", phase).containsExactly("id");
        for (int i = 0; i < Math.min(schema.columnCount(), COLUMNS.length); i++) {
            softly.assertThat(schema.name(i))
                    .as("%s column %d", phase, i)
                    .isEqualTo(COLUMNS[i].name);
            softly.assertThat(schema.mysqlType(i))
                    .as("%s mysqlType of %s vs COLUMN_TYPE", phase, COLUMNS[i].name)
                    .isEqualTo(columnTypes.get(COLUMNS[i].name));
            softly.assertThat(schema.sqlType(i))
                    .as("%s sqlType of %s", phase, COLUMNS[i].name)
                    .isEqualTo(sqlType(kind, i));
        }
    }

    static void checkRow(SoftAssertions softly, String what, RowImage image, String[] expected) {
        softly.assertThat(image).as("%s image", what).isNotNull();
        if (image == null) {
            return;
        }
        softly.assertThat(image.columnCount()).as("%s width", what).isEqualTo(expected.length);
        for (int i = 0; i < Math.min(image.columnCount(), expected.length); i++) {
            softly.assertThat(image.text(i))
                    .as("%s: %s", what, COLUMNS[i].name)
                    .isEqualTo(expected[i]);
        }
    }

    /**
     * The workload's UPDATE of row 12 (a copy of seed row 2: c_varchar and c_decimal set) and its
     * DELETE of row 13 (a copy of seed row 3), where {@code row} gives a reader's text of a copy.
     */
    static void checkUpdateAndDelete(
            SoftAssertions softly,
            ChangeEvent update,
            ChangeEvent delete,
            BiFunction<Integer, Integer, String[]> row) {
        softly.assertThat(update.type()).isEqualTo(ChangeType.UPDATE);
        checkRow(softly, "update before", update.before(), row.apply(2, 12));
        String[] updated = row.apply(2, 12);
        updated[index("c_varchar")] = "upd";
        updated[index("c_decimal")] = "10.50";
        checkRow(softly, "update after", update.after(), updated);
        softly.assertThat(update.isUpdated(index("c_varchar"))).isTrue();
        softly.assertThat(update.isUpdated(index("c_int"))).isFalse();
        softly.assertThat(delete.type()).isEqualTo(ChangeType.DELETE);
        softly.assertThat(delete.after()).isNull();
        checkRow(softly, "delete before", delete.before(), row.apply(3, 13));
    }

    /** Canal's sqlType of column {@code i} on a server of {@code kind}. */
    static int sqlType(DatabaseServer.Kind kind, int i) {
        if (kind == DatabaseServer.Kind.MYSQL && COLUMNS[i].name.equals("c_json")) {
            return Types.VARCHAR; // MySQL's own JSON type, not MariaDB's LONGTEXT alias
        }
        return COLUMNS[i].sqlType;
    }

    static int index(String column) {
        int i = Arrays.asList(names()).indexOf(column);
        if (i < 0) {
            throw new IllegalArgumentException(column);
        }
        return i;
    }

    /** {@code information_schema.COLUMNS.COLUMN_TYPE} by column, in table order. */
    static Map<String, String> columnTypes(DatabaseServer server, String database)
            throws Exception {
        return columnTypes(server, database, "all_types");
    }

    /** {@code COLUMN_TYPE} of {@code table}'s columns, in table order. */
    static Map<String, String> columnTypes(DatabaseServer server, String database, String table)
            throws Exception {
        Map<String, String> types = new LinkedHashMap<>();
        try (Connection connection = server.connect(database);
                Statement statement = connection.createStatement();
                ResultSet rows =
                        statement.executeQuery(
                                "SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS"
                                        + " WHERE TABLE_SCHEMA = '"
                                        + database
                                        + "' AND TABLE_NAME = '"
                                        + table
                                        + "'"
                                        + " ORDER BY ORDINAL_POSITION")) {
            while (rows.next()) {
                types.put(rows.getString(1), rows.getString(2));
            }
        }
        return types;
    }

    static String[] names() {
        return Arrays.stream(COLUMNS).map(c -> c.name).toArray(String[]::new);
    }

    private static Column column(String name, int sqlType, String row1, String row2, String row4) {
        return new Column(name, sqlType, new String[] {row1, row2, row4});
    }

    /** One column of all_types and what Canal writes for it. */
    static final class Column {
        final String name;
        final int sqlType;
        final String[] seeds;

        Column(String name, int sqlType, String[] seeds) {
            this.name = name;
            this.sqlType = sqlType;
            this.seeds = seeds;
        }
    }
}
