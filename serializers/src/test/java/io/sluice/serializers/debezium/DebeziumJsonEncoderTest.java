package io.sluice.serializers.debezium;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The value conversions of {@link DebeziumJsonEncoder}, each from Sluice's text of a value to what
 * Debezium 3.6.1's MySQL connector wrote for the same value in {@code DebeziumJsonJudgeITCase}
 * (MySQL 8.0, Debezium's default modes).
 */
class DebeziumJsonEncoderTest {

    private static final String[][] COLUMNS = {
        // name, mysqlType, Sluice's text, Debezium's JSON value
        {"id", "int", "2", "2"},
        {"c_tinyint", "tinyint", "-128", "-128"},
        {"c_tinyint_u", "tinyint unsigned", "255", "255"},
        {"c_smallint_u", "smallint unsigned", "65535", "65535"},
        {"c_int", "int", "-2147483648", "-2147483648"},
        {"c_int_u", "int unsigned", "4294967295", "4294967295"},
        {"c_bigint", "bigint", "-9223372036854775808", "-9223372036854775808"},
        {"c_bigint_u", "bigint unsigned", "18446744073709551615", "-1"},
        {"c_bigint_u2", "bigint unsigned", "9223372036854775808", "-9223372036854775808"},
        {"c_decimal", "decimal(10,2)", "10.00", "\"A+g=\""},
        {"c_decimal_neg", "decimal(10,2)", "-99999999.99", "\"/av0HAE=\""},
        {"c_decimal0", "decimal(10,0)", "9999999999", "\"AlQL4/8=\""},
        {"c_decimal_zero", "decimal(10,2)", "0.00", "\"AA==\""},
        {
            "c_decimal_big",
            "decimal(38,10)",
            "-1234567890123456789012345678.0123456789",
            "\"9rZPCQ/9zOw7tm+xM5i66w==\""
        },
        {"c_decimal_tiny", "decimal(38,10)", "0.0000000001", "\"AQ==\""},
        {"c_float", "float", "0.1", "0.1"},
        {"c_double", "double", "-1.7976931348623157E308", "-1.7976931348623157E308"},
        {"c_bit1", "bit(1)", "1", "true"},
        {"c_bit10", "bit(10)", "682", "\"qgI=\""},
        {"c_bit10_one", "bit(10)", "1", "\"AQA=\""},
        {"c_bit64", "bit(64)", "18446744073709551615", "\"//////////8=\""},
        {"c_year", "year", "2155", "2155"},
        {"c_year0", "year", "0000", "1900"},
        {"c_date", "date", "9999-12-31", "2932896"},
        {"c_date_old", "date", "1000-01-01", "-354285"},
        {"c_date_zero", "date", "0000-00-00", "null"},
        {"c_time", "time", "-838:59:59", "-3020399000000"},
        {"c_time6", "time(6)", "12:00:00.000001", "43200000001"},
        {"c_time6_neg", "time(6)", "-00:00:00.500000", "-500000"},
        {"c_datetime", "datetime", "9999-12-31 23:59:59", "253402300799000"},
        {"c_datetime3", "datetime(3)", "2024-02-29 23:59:59.123", "1709251199123"},
        {"c_datetime6", "datetime(6)", "1000-01-01 00:00:00.000000", "-30610224000000000"},
        {"c_datetime_zero", "datetime(6)", "2020-00-00 00:00:00.000000", "null"},
        {"c_timestamp", "timestamp", "2038-01-19 03:14:07", "\"2038-01-19T03:14:07Z\""},
        {"c_timestamp3", "timestamp(3)", "1970-01-01 00:00:01.000", "\"1970-01-01T00:00:01.000Z\""},
        {"c_timestamp_zero", "timestamp(3)", "0000-00-00 00:00:00.000", "null"},
        {"c_varchar", "varchar(16)", "héllo 😀", "\"héllo 😀\""},
        {"c_enum", "enum('a','B','c')", "2", "\"B\""},
        {"c_enum_invalid", "enum('a','b','c')", "0", "\"\""},
        {"c_set", "set('x','y','z')", "5", "\"x,z\""},
        {"c_set_empty", "set('x','y','z')", "0", "\"\""},
        {
            "c_json",
            "json",
            "{\"a\": 1, \"b\": [1, 2], \"s\": \"x y\"}",
            "\"{\\\"a\\\":1,\\\"b\\\":[1,2],\\\"s\\\":\\\"x y\\\"}\""
        },
    };

    private final DebeziumJsonEncoder encoder =
            new DebeziumJsonEncoder(DebeziumJsonSettings.defaults("sluice"));

    @Test
    void everyTypeAsDebeziumWritesIt() {
        TableSchema.Builder schema = TableSchema.builder("db", "all_types");
        RowImage.Builder row = new RowImage.Builder();
        StringBuilder expected = new StringBuilder("{");
        for (String[] column : COLUMNS) {
            schema.column(column[0], column[1], Types.OTHER, column[0].equals("id"));
            row.append(column[2]);
            expected.append(expected.length() > 1 ? "," : "")
                    .append('"')
                    .append(column[0])
                    .append("\":")
                    .append(column[3]);
        }
        // Binary values: Sluice's text is one ISO-8859-1 char per byte.
        schema.column("c_binary", "binary(4)", Types.BINARY, false);
        row.appendLatin1(new byte[] {0, (byte) 0xff, 0x7f, (byte) 0x80}, 0, 4);
        expected.append(",\"c_binary\":\"AP9/gA==\"");
        schema.column("c_null", "int", Types.INTEGER, false);
        row.appendNull();
        expected.append(",\"c_null\":null}");

        ChangeEvent insert =
                ChangeEvent.builder(schema.build(), ChangeType.INSERT)
                        .after(row.build())
                        .binlog("mysql-bin.000001", 4, 0)
                        .build();
        JSONObject payload = json(encoder.value(insert, 1L)).getJSONObject("payload");

        assertThat(payload.getJSONObject("after")).isEqualTo(JSON.parseObject(expected.toString()));
    }

    @Test
    void envelopeSourceAndKey() {
        TableSchema schema =
                TableSchema.builder("shop", "pairs")
                        .column("a", "int", Types.INTEGER, true)
                        .column("b", "varchar(8)", Types.VARCHAR, true)
                        .column("v", "bigint", Types.BIGINT, false)
                        .build();
        ChangeEvent delete =
                ChangeEvent.builder(schema, ChangeType.DELETE)
                        .before(new RowImage.Builder().append(1).append("x").append(7).build())
                        .executeTime(1_700_000_000_000L)
                        .gtid("uuid:5")
                        .binlog("mysql-bin.000002", 123, 1)
                        .serverId(9)
                        .build();

        JSONObject value = json(encoder.value(delete, 42L));
        JSONObject payload = value.getJSONObject("payload");
        assertThat(payload.getString("op")).isEqualTo("d");
        assertThat(payload.get("after")).isNull();
        assertThat(payload.getJSONObject("before").toJSONString())
                .isEqualTo("{\"a\":1,\"b\":\"x\",\"v\":7}");
        assertThat(payload.getLong("ts_ms")).isEqualTo(42L);
        assertThat(payload.getJSONObject("source").toJSONString())
                .isEqualTo(
                        "{\"version\":\"sluice\",\"connector\":\"mysql\",\"name\":\"sluice\","
                                + "\"ts_ms\":1700000000000,\"snapshot\":\"false\",\"db\":\"shop\","
                                + "\"ts_us\":1700000000000000,\"ts_ns\":1700000000000000000,"
                                + "\"table\":\"pairs\",\"server_id\":9,\"gtid\":\"uuid:5\","
                                + "\"file\":\"mysql-bin.000002\",\"pos\":123,\"row\":1}");
        assertThat(value.getJSONObject("schema").getString("name"))
                .isEqualTo("sluice.shop.pairs.Envelope");

        JSONObject key = json(encoder.key(delete));
        assertThat(key.getJSONObject("payload").toJSONString()).isEqualTo("{\"a\":1,\"b\":\"x\"}");
        assertThat(key.getJSONObject("schema").toJSONString())
                .isEqualTo(
                        "{\"type\":\"struct\",\"fields\":[{\"type\":\"int32\",\"optional\":false,"
                                + "\"field\":\"a\"},{\"type\":\"string\",\"optional\":false,"
                                + "\"field\":\"b\"}],\"optional\":false,"
                                + "\"name\":\"sluice.shop.pairs.Key\"}");
        assertThat(encoder.tombstoneAfter(delete)).isTrue();
    }

    @Test
    void withoutSchemasOrTombstones() {
        DebeziumJsonEncoder plain =
                new DebeziumJsonEncoder(new DebeziumJsonSettings("p", false, false, "UTC"));
        TableSchema schema =
                TableSchema.builder("db", "t").column("id", "int", Types.INTEGER, true).build();
        RowImage one = new RowImage.Builder().append(1).build();
        ChangeEvent delete = ChangeEvent.builder(schema, ChangeType.DELETE).before(one).build();

        assertThat(new String(plain.key(delete), StandardCharsets.UTF_8)).isEqualTo("{\"id\":1}");
        JSONObject value = json(plain.value(delete, 1L));
        assertThat(value.containsKey("schema")).isFalse();
        assertThat(value.getString("op")).isEqualTo("d");
        assertThat(plain.tombstoneAfter(delete)).isFalse();
    }

    @Test
    void snapshotRowsAreReadsAndKeylessTablesHaveNoKey() {
        TableSchema schema =
                TableSchema.builder("db", "log").column("l", "text", Types.CLOB, false).build();
        ChangeEvent read =
                ChangeEvent.builder(schema, ChangeType.INSERT)
                        .after(new RowImage.Builder().append("x").build())
                        .build();

        JSONObject payload = json(encoder.value(read, 1L)).getJSONObject("payload");
        assertThat(payload.getString("op")).isEqualTo("r");
        assertThat(payload.getJSONObject("source").getString("snapshot")).isEqualTo("true");
        assertThat(encoder.key(read)).isNull();
    }

    @Test
    void timestampTextInAnotherZoneIsWrittenInUtc() {
        DebeziumJsonEncoder shanghai =
                new DebeziumJsonEncoder(
                        new DebeziumJsonSettings("p", false, true, "Asia/Shanghai"));
        TableSchema schema =
                TableSchema.builder("db", "t")
                        .column("ts", "timestamp(1)", Types.TIMESTAMP, false)
                        .build();
        ChangeEvent insert =
                ChangeEvent.builder(schema, ChangeType.INSERT)
                        .after(new RowImage.Builder().append("2024-03-01 08:00:00.5").build())
                        .binlog("f", 4, 0)
                        .build();

        assertThat(json(shanghai.value(insert, 1L)).getJSONObject("after").getString("ts"))
                .isEqualTo("2024-03-01T00:00:00.5Z");
    }

    @Test
    void statementsHaveNoValue() {
        TableSchema schema =
                TableSchema.builder("db", "t").column("id", "int", Types.INTEGER, true).build();
        ChangeEvent ddl =
                ChangeEvent.builder(schema, ChangeType.ALTER)
                        .sql("ALTER TABLE t ADD x INT")
                        .build();

        assertThat(encoder.key(ddl)).isNull();
        assertThatThrownBy(() -> encoder.value(ddl, 1L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("debezium-json writes row changes only, but got a ALTER");
    }

    private static JSONObject json(byte[] bytes) {
        return JSON.parseObject(new String(bytes, StandardCharsets.UTF_8));
    }
}
