package io.sluice.functions.source;

import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Schema;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.SchemaBuilder;

import io.debezium.spi.converter.CustomConverter;
import io.debezium.spi.converter.RelationalColumn;
import io.sluice.functions.source.internal.TimestampMicrosConverter;
import org.junit.jupiter.api.Test;

import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.OptionalInt;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TimestampMicrosConverterTest {

    private static final Instant LEAP_DAY = Instant.parse("2024-02-29T23:59:59.123456Z");
    private static final long LEAP_DAY_MICROS = 1_709_251_199_123_456L;

    @Test
    void binlogSnapshotAndDefaultValuesGiveTheSameMicroseconds() {
        Registered timestamp = register(column("TIMESTAMP", true, false, null));

        assertThat(timestamp.schema.type()).isEqualTo(Schema.Type.INT64);
        assertThat(timestamp.schema.name()).isEqualTo(TimestampMicrosConverter.SCHEMA_NAME);
        // The binlog: a ZonedDateTime in UTC.
        assertThat(timestamp.convert(LEAP_DAY.atZone(ZoneOffset.UTC))).isEqualTo(LEAP_DAY_MICROS);
        // A snapshot: JDBC's Timestamp, nanoseconds cut to microseconds.
        Timestamp jdbc = Timestamp.from(LEAP_DAY);
        jdbc.setNanos(123_456_789);
        assertThat(timestamp.convert(jdbc)).isEqualTo(LEAP_DAY_MICROS);
        // A column default: a ZonedDateTime in the JVM's zone, or Debezium's ISO text.
        assertThat(timestamp.convert(LEAP_DAY.atZone(ZoneId.of("Asia/Shanghai"))))
                .isEqualTo(LEAP_DAY_MICROS);
        assertThat(timestamp.convert(OffsetDateTime.ofInstant(LEAP_DAY, ZoneOffset.ofHours(-3))))
                .isEqualTo(LEAP_DAY_MICROS);
        assertThat(timestamp.convert("2024-03-01T07:59:59.123456+08:00"))
                .isEqualTo(LEAP_DAY_MICROS);
        assertThat(timestamp.convert(Instant.EPOCH)).isEqualTo(0L);
        assertThat(timestamp.convert(Instant.parse("1969-12-31T23:59:59.999999Z"))).isEqualTo(-1L);
    }

    @Test
    void nullIsNullWhenOptionalElseTheDefaultElseTheEpoch() {
        assertThat(register(column("TIMESTAMP", true, false, null)).convert(null)).isNull();
        Timestamp dflt = Timestamp.from(LEAP_DAY);
        assertThat(register(column("timestamp", false, true, dflt)).convert(null))
                .isEqualTo(LEAP_DAY_MICROS);
        // DEFAULT CURRENT_TIMESTAMP and zero defaults: Debezium parses both as the epoch.
        assertThat(
                        register(column("TIMESTAMP", false, true, Timestamp.from(Instant.EPOCH)))
                                .convert(null))
                .isEqualTo(0L);
        assertThat(register(column("TIMESTAMP", false, false, null)).convert(null)).isEqualTo(0L);
    }

    @Test
    void leavesOtherTypesToDebezium() {
        assertThat(register(column("DATETIME", true, false, null))).isNull();
        assertThat(register(column("DATE", true, false, null))).isNull();
    }

    @Test
    void anUnreadableValueNamesTheColumnAndTheValue() {
        Registered timestamp = register(column("TIMESTAMP", true, false, null));

        assertThatThrownBy(() -> timestamp.convert(42L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shop.orders.created_at")
                .hasMessageContaining("'42'")
                .hasMessageContaining("java.lang.Long");
        assertThatThrownBy(() -> timestamp.convert("2024-02-29 23:59:59"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shop.orders.created_at")
                .hasMessageContaining("'2024-02-29 23:59:59'");
    }

    @Test
    void tellsWhenATimestampLeadsThePrimaryKey() {
        Schema micros = register(column("TIMESTAMP", false, false, null)).schema;
        Schema leading =
                SchemaBuilder.struct().field("ts", micros).field("id", Schema.INT64_SCHEMA).build();
        Schema following =
                SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).field("ts", micros).build();

        assertThat(TimestampMicrosConverter.leadsKey(leading)).isTrue();
        assertThat(TimestampMicrosConverter.leadsKey(following)).isFalse();
        assertThat(TimestampMicrosConverter.leadsKey(SchemaBuilder.struct().build())).isFalse();
        assertThat(TimestampMicrosConverter.leadsKey(null)).isFalse();
    }

    /** The schema and converter the converter registers for {@code column}, or null if none. */
    private static Registered register(RelationalColumn column) {
        TimestampMicrosConverter converter = new TimestampMicrosConverter();
        converter.configure(new Properties());
        Registered[] registered = new Registered[1];
        converter.converterFor(
                column,
                (schema, convert) -> registered[0] = new Registered(schema.build(), convert));
        return registered[0];
    }

    private record Registered(Schema schema, CustomConverter.Converter converter) {
        Object convert(Object value) {
            return converter.convert(value);
        }
    }

    private static RelationalColumn column(
            String typeName, boolean optional, boolean hasDefault, Object defaultValue) {
        return new RelationalColumn() {
            @Override
            public String name() {
                return "created_at";
            }

            @Override
            public String dataCollection() {
                return "shop.orders";
            }

            @Override
            public int jdbcType() {
                return Types.TIMESTAMP_WITH_TIMEZONE;
            }

            @Override
            public int nativeType() {
                return -1;
            }

            @Override
            public String typeName() {
                return typeName;
            }

            @Override
            public String typeExpression() {
                return typeName;
            }

            @Override
            public OptionalInt length() {
                return OptionalInt.of(6);
            }

            @Override
            public OptionalInt scale() {
                return OptionalInt.empty();
            }

            @Override
            public boolean isOptional() {
                return optional;
            }

            @Override
            public Object defaultValue() {
                return defaultValue;
            }

            @Override
            public boolean hasDefaultValue() {
                return hasDefault;
            }
        };
    }
}
