package io.sluice.functions.source;

import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Decimal;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.SchemaBuilder;

import io.debezium.data.Bits;
import io.debezium.data.Enum;
import io.debezium.data.EnumSet;
import io.debezium.data.geometry.Geometry;
import io.debezium.data.geometry.Point;
import io.debezium.time.Date;
import io.debezium.time.MicroTime;
import io.debezium.time.MicroTimestamp;
import io.debezium.time.Timestamp;
import io.debezium.time.Year;
import io.sluice.functions.source.internal.DeclaredType;
import io.sluice.functions.source.internal.TemporalText;
import io.sluice.functions.source.internal.TimestampMicrosConverter;
import io.sluice.functions.source.internal.ValueRenderer;
import io.sluice.functions.source.internal.ValueRenderers;
import io.sluice.serializers.event.RowImage;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each declared type's renderer, fed the Java values Debezium delivers for it. */
class ValueRenderersTest {

    private static final ZoneId UTC = ZoneOffset.UTC;
    private static final Schema TIMESTAMP_MICROS =
            SchemaBuilder.int64().name(TimestampMicrosConverter.SCHEMA_NAME).build();

    @Test
    void signedAndUnsignedIntegersAsDebeziumWidensThem() {
        assertThat(render("TINYINT", "4", Schema.INT16_SCHEMA, (short) -128)).isEqualTo("-128");
        assertThat(render("TINYINT UNSIGNED", "3", Schema.INT16_SCHEMA, (short) 255))
                .isEqualTo("255");
        assertThat(render("SMALLINT UNSIGNED", "5", Schema.INT32_SCHEMA, 65535)).isEqualTo("65535");
        assertThat(render("INT UNSIGNED", "10", Schema.INT64_SCHEMA, 4294967295L))
                .isEqualTo("4294967295");
        assertThat(render("BIGINT", "20", Schema.INT64_SCHEMA, Long.MIN_VALUE))
                .isEqualTo("-9223372036854775808");
    }

    @Test
    void bigintUnsignedMaxStaysExact() {
        Schema precise = Decimal.builder(0).build();
        assertThat(render("BIGINT UNSIGNED", "20", precise, new BigDecimal("18446744073709551615")))
                .isEqualTo("18446744073709551615");
        // bigint.unsigned.handling.mode=long wraps; the bits are still the unsigned value.
        assertThat(render("BIGINT UNSIGNED", "20", Schema.INT64_SCHEMA, -1L))
                .isEqualTo("18446744073709551615");
    }

    @Test
    void decimalKeepsItsDeclaredScale() {
        Schema schema = Decimal.builder(2).build();
        assertThat(renderDecimal(10, 2, schema, new BigDecimal("10.00"))).isEqualTo("10.00");
        assertThat(renderDecimal(10, 2, schema, new BigDecimal("10"))).isEqualTo("10.00");
        assertThat(renderDecimal(10, 2, schema, new BigDecimal("-0.05"))).isEqualTo("-0.05");
        assertThat(renderDecimal(10, 2, schema, new BigDecimal("-99999999.99")))
                .isEqualTo("-99999999.99");
        assertThat(renderDecimal(10, 0, Decimal.builder(0).build(), new BigDecimal("-5")))
                .isEqualTo("-5");
        Schema wide = Decimal.builder(10).build();
        assertThat(renderDecimal(38, 10, wide, new BigDecimal("0.0000000001")))
                .isEqualTo("0.0000000001");
        assertThat(
                        renderDecimal(
                                38,
                                10,
                                wide,
                                new BigDecimal("-1234567890123456789012345678.0123456789")))
                .isEqualTo("-1234567890123456789012345678.0123456789");
        assertThat(renderDecimal(38, 10, wide, new BigDecimal("1E+3").setScale(10)))
                .isEqualTo("1000.0000000000");
    }

    @Test
    void floatAndDoubleAsJavaPrintsThem() {
        assertThat(render("FLOAT", null, Schema.FLOAT32_SCHEMA, 0.1f)).isEqualTo("0.1");
        assertThat(render("FLOAT", null, Schema.FLOAT32_SCHEMA, 1.0e-5f)).isEqualTo("1.0E-5");
        assertThat(render("FLOAT", null, Schema.FLOAT32_SCHEMA, 1.2345678e7f))
                .isEqualTo("1.2345678E7");
        assertThat(render("FLOAT", null, Schema.FLOAT32_SCHEMA, -3.4028235e38f))
                .isEqualTo("-3.4028235E38");
        assertThat(render("DOUBLE", null, Schema.FLOAT64_SCHEMA, 0.001)).isEqualTo("0.001");
        assertThat(render("DOUBLE", null, Schema.FLOAT64_SCHEMA, 1.0e7)).isEqualTo("1.0E7");
        assertThat(render("DOUBLE", null, Schema.FLOAT64_SCHEMA, -0.0)).isEqualTo("-0.0");
    }

    @Test
    void bitsAreLittleEndianFromDebezium() {
        assertThat(render("BIT", "1", Schema.BOOLEAN_SCHEMA, true)).isEqualTo("1");
        assertThat(render("BIT", "1", Schema.BOOLEAN_SCHEMA, false)).isEqualTo("0");
        // b'1010101010' = 0x2AA arrives as {0xAA, 0x02}.
        assertThat(render("BIT", "10", Bits.schema(10), new byte[] {(byte) 0xaa, 0x02}))
                .isEqualTo("682");
        assertThat(render("BIT", "10", Bits.schema(10), new byte[] {(byte) 0xff, 0x03}))
                .isEqualTo("1023");
        assertThat(render("BIT", "10", Bits.schema(10), new byte[] {0x01, 0x00})).isEqualTo("1");
        byte[] allOnes = new byte[8];
        java.util.Arrays.fill(allOnes, (byte) 0xff);
        assertThat(render("BIT", "64", Bits.schema(64), allOnes)).isEqualTo("18446744073709551615");
        assertThat(render("BIT", "64", Bits.schema(64), new byte[] {1, 0, 0, 0, 0, 0, 0, 0}))
                .isEqualTo("1");
    }

    @Test
    void enumIsItsOneBasedIndexAndSetItsBitmask() {
        Schema enumSchema = Enum.builder("a,b,c").build();
        assertThat(render("ENUM", "1", "a,b,c", enumSchema, "b")).isEqualTo("2");
        assertThat(render("ENUM", "1", "a,b,c", enumSchema, "a")).isEqualTo("1");
        assertThat(render("ENUM", "1", "a,b,c", enumSchema, "")).isEqualTo("0");
        Schema setSchema = EnumSet.builder("x,y,z").build();
        assertThat(render("SET", "5", "x,y,z", setSchema, "x,z")).isEqualTo("5");
        assertThat(render("SET", "5", "x,y,z", setSchema, "y")).isEqualTo("2");
        assertThat(render("SET", "5", "x,y,z", setSchema, "x,y,z")).isEqualTo("7");
        assertThat(render("SET", "5", "x,y,z", setSchema, "")).isEqualTo("0");
        assertThatThrownBy(() -> render("ENUM", "1", "a,b,c", enumSchema, "d"))
                .hasMessageContaining("'d' is not one of the labels");
        assertThatThrownBy(() -> render("SET", "5", "x,y,z", setSchema, "x,w"))
                .hasMessageContaining("'w' is not one of the labels");
    }

    @Test
    void temporalTypesFromDebeziumUnits() {
        assertThat(render("YEAR", "4", Year.schema(), 2024)).isEqualTo("2024");
        assertThat(render("YEAR", "4", Year.schema(), 1900)).isEqualTo("0000");
        assertThat(
                        render(
                                "DATE",
                                null,
                                Date.schema(),
                                (int) LocalDate.of(2024, 2, 29).toEpochDay()))
                .isEqualTo("2024-02-29");
        assertThat(render("TIME", "6", MicroTime.schema(), -3_020_399_000_000L))
                .isEqualTo("-838:59:59.000000");
        assertThat(render("TIME", null, MicroTime.schema(), 3_020_399_000_000L))
                .isEqualTo("838:59:59");
        assertThat(render("TIME", "6", MicroTime.schema(), 43_200_000_001L))
                .isEqualTo("12:00:00.000001");
        assertThat(render("DATETIME", "3", Timestamp.schema(), 1_709_251_199_123L))
                .isEqualTo("2024-02-29 23:59:59.123");
        assertThat(render("DATETIME", null, Timestamp.schema(), 253_402_300_799_000L))
                .isEqualTo("9999-12-31 23:59:59");
        assertThat(render("DATETIME", "6", MicroTimestamp.schema(), 1_709_251_199_123_456L))
                .isEqualTo("2024-02-29 23:59:59.123456");
    }

    @Test
    void timestampIsWrittenInTheConfiguredZone() {
        assertThat(timestamp("3", "2024-02-29T23:59:59.12Z", UTC))
                .isEqualTo("2024-02-29 23:59:59.120");
        assertThat(timestamp("3", "2024-02-29T23:59:59.12Z", ZoneId.of("Asia/Shanghai")))
                .isEqualTo("2024-03-01 07:59:59.120");
        // Daylight saving: the offset is the one in force at that instant.
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        assertThat(timestamp(null, "2024-01-15T12:00:00Z", berlin))
                .isEqualTo("2024-01-15 13:00:00");
        assertThat(timestamp(null, "2024-07-15T12:00:00Z", berlin))
                .isEqualTo("2024-07-15 14:00:00");
        assertThat(timestamp(null, "1970-01-01T00:00:00Z", berlin))
                .isEqualTo("0000-00-00 00:00:00");
    }

    /** The text of a TIMESTAMP({@code fsp}) holding the instant {@code iso}, in {@code zone}. */
    private static String timestamp(String fsp, String iso, ZoneId zone) {
        return render("TIMESTAMP", fsp, TIMESTAMP_MICROS, micros(iso), zone);
    }

    @Test
    void oneTimestampRendererFollowsZoneTransitionsBothWays() {
        ValueRenderer renderer =
                ValueRenderers.forColumn(
                        DeclaredType.of("TIMESTAMP", null, null, null),
                        TIMESTAMP_MICROS,
                        ZoneId.of("Europe/Berlin"));
        // Summer time starts 2024-03-31 01:00 UTC and ends 2024-10-27 01:00 UTC; in this order.
        String[][] instantsAndTexts = {
            {"2024-03-31T00:59:59Z", "2024-03-31 01:59:59"},
            {"2024-03-31T01:00:00Z", "2024-03-31 03:00:00"},
            {"2024-07-15T12:00:00Z", "2024-07-15 14:00:00"},
            {"2024-01-15T12:00:00Z", "2024-01-15 13:00:00"},
            {"2024-10-27T00:59:59Z", "2024-10-27 02:59:59"},
            {"2024-10-27T01:00:00Z", "2024-10-27 02:00:00"},
            {"2024-03-31T00:59:59Z", "2024-03-31 01:59:59"},
        };
        for (String[] instantAndText : instantsAndTexts) {
            assertThat(render(renderer, micros(instantAndText[0])))
                    .as(instantAndText[0])
                    .isEqualTo(instantAndText[1]);
        }
    }

    @Test
    void textAndBytes() {
        assertThat(render("VARCHAR", "16", Schema.STRING_SCHEMA, "héllo 😀")).isEqualTo("héllo 😀");
        assertThat(
                        render(
                                "BINARY",
                                "4",
                                Schema.BYTES_SCHEMA,
                                ByteBuffer.wrap(new byte[] {0, (byte) 0xff, 0x7f, (byte) 0x80})))
                .isEqualTo("\u0000\u00ff\u007f\u0080");
        ByteBuffer slice = ByteBuffer.wrap(new byte[] {9, (byte) 0xc3, (byte) 0xa9, 9}, 1, 2);
        assertThat(render("BLOB", null, Schema.BYTES_SCHEMA, slice.slice())).isEqualTo("Ã©");
        assertThat(render("VARBINARY", "4", Schema.BYTES_SCHEMA, new byte[] {(byte) 0xde}))
                .isEqualTo("\u00de");
    }

    @Test
    void rejectsSchemasTheSourceShouldNotProduce() {
        assertThatThrownBy(
                        () ->
                                ValueRenderers.forColumn(
                                        DeclaredType.of("DECIMAL", "10", "2", null),
                                        Schema.FLOAT64_SCHEMA,
                                        UTC))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("decimal(10,2)")
                .hasMessageContaining("decimal.handling.mode=precise");
        assertThatThrownBy(
                        () ->
                                ValueRenderers.forColumn(
                                        DeclaredType.of("TIME", null, null, null),
                                        Schema.INT64_SCHEMA,
                                        UTC))
                .hasMessageContaining("adaptive_time_microseconds");
        // Debezium's own TIMESTAMP text means the converter was not configured.
        assertThatThrownBy(
                        () ->
                                ValueRenderers.forColumn(
                                        DeclaredType.of("TIMESTAMP", null, null, null),
                                        io.debezium.time.ZonedTimestamp.schema(),
                                        UTC))
                .hasMessageContaining(TimestampMicrosConverter.SCHEMA_NAME);
        assertThatThrownBy(
                        () ->
                                ValueRenderers.forColumn(
                                        DeclaredType.of("GEOMETRY", null, null, null),
                                        SchemaBuilder.struct().build(),
                                        UTC))
                .hasMessageContaining("but Sluice expects io.debezium.data.geometry.Geometry");
        assertThatThrownBy(
                        () ->
                                ValueRenderers.forColumn(
                                        DeclaredType.of("VECTOR", null, null, null),
                                        Schema.BYTES_SCHEMA,
                                        UTC))
                .hasMessageContaining("type vector is not supported");
    }

    /** What Sluice's TIMESTAMP converter gives for the instant {@code iso}. */
    private static long micros(String iso) {
        return TemporalText.parseIsoInstantMicros(iso);
    }

    private static String render(ValueRenderer renderer, Object value) {
        RowImage.Builder out = new RowImage.Builder();
        renderer.render(value, new StringBuilder(), out);
        return out.build().text(0);
    }

    private static String renderDecimal(int precision, int scale, Schema schema, BigDecimal v) {
        return render(
                "DECIMAL", String.valueOf(precision), String.valueOf(scale), null, schema, v, UTC);
    }

    private static String render(String type, String length, Schema schema, Object value) {
        return render(type, length, null, null, schema, value, UTC);
    }

    private static String render(
            String type, String length, Schema schema, Object value, ZoneId zone) {
        return render(type, length, null, null, schema, value, zone);
    }

    private static String render(
            String type, String length, String allowed, Schema schema, Object value) {
        return render(type, length, null, allowed, schema, value, UTC);
    }

    private static String render(
            String type,
            String length,
            String scale,
            String allowed,
            Schema schema,
            Object value,
            ZoneId zone) {
        ValueRenderer renderer =
                ValueRenderers.forColumn(
                        DeclaredType.of(type, length, scale, allowed), schema, zone);
        RowImage.Builder out = new RowImage.Builder();
        renderer.render(value, new StringBuilder(), out);
        return out.build().text(0);
    }

    @Test
    void spatialValuesAreTheColumnsBytesSridThenWkb() {
        byte[] wkb = {1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xf0, 0x3f};
        Schema geometry = Geometry.builder().build();
        assertThat(render("GEOMETRY", null, geometry, Geometry.createValue(geometry, wkb, null)))
                .isEqualTo("\0\0\0\0" + new String(wkb, StandardCharsets.ISO_8859_1));
        assertThat(render("POINT", null, geometry, Geometry.createValue(geometry, wkb, 4326)))
                .isEqualTo("\u00e6\u0010\0\0" + new String(wkb, StandardCharsets.ISO_8859_1));
        Schema point = Point.builder().build();
        assertThat(render("POINT", null, point, Point.createValue(point, 1, 0)).substring(0, 4))
                .isEqualTo("\0\0\0\0");
        assertThat(ValueRenderers.renders(DeclaredType.of("GEOMCOLLECTION", null, null, null)))
                .isTrue();
        assertThatThrownBy(() -> render("POINT", null, Schema.BYTES_SCHEMA, wkb))
                .hasMessageContaining("io.debezium.data.geometry.Geometry");
        assertThat(ValueRenderers.renders(DeclaredType.of("VECTOR", null, null, null))).isFalse();
    }

    /**
     * MariaDB's UUID, INET4 and INET6, which Debezium reads as BINARY(n): the binlog's stored bytes
     * (trailing zero bytes dropped) and the snapshot's text both as SELECT shows them.
     */
    @Test
    void mariaDbUuidAndInetAsSelectShowsThem() {
        byte[] uuid = HexFormat.of().parseHex("123e4567e89b12d3a4564266141740");
        assertThat(render("UUID", "16", Schema.BYTES_SCHEMA, ByteBuffer.wrap(uuid)))
                .isEqualTo("123e4567-e89b-12d3-a456-426614174000");
        String text = "123e4567-e89b-12d3-a456-426614174000";
        assertThat(
                        render(
                                "UUID",
                                "16",
                                Schema.BYTES_SCHEMA,
                                text.getBytes(StandardCharsets.US_ASCII)))
                .isEqualTo(text);
        assertThat(render("INET4", "4", Schema.BYTES_SCHEMA, new byte[] {(byte) 192, 0, 2}))
                .isEqualTo("192.0.2.0");
        assertThat(render("INET4", "4", Schema.BYTES_SCHEMA, "10.0.0.1".getBytes()))
                .isEqualTo("10.0.0.1");
        assertThat(
                        render(
                                "INET6",
                                "16",
                                Schema.BYTES_SCHEMA,
                                HexFormat.of().parseHex("20010db8000000000000000000000001")))
                .isEqualTo("2001:db8::1");
        assertThat(DeclaredType.of("INET6", "16", null, null).mysqlType()).isEqualTo("inet6");
        assertThat(DeclaredType.of("UUID", "16", null, null).sqlType()).isEqualTo(Types.CHAR);
        assertThat(ValueRenderers.renders(DeclaredType.of("UUID", null, null, null))).isTrue();
        assertThatThrownBy(() -> render("UUID", "16", Schema.STRING_SCHEMA, text))
                .hasMessageContaining("bytes");
    }
}
