package io.sluice.functions.source;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;
import org.apache.flink.cdc.debezium.DebeziumDeserializationSchema;
import org.apache.flink.util.Collector;

import io.sluice.functions.source.internal.ChangeRecordConverter;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.functions.source.internal.MariaDbBinaryTypes;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.functions.source.internal.TimestampMicrosConverter;
import io.sluice.functions.types.ChangeEventTypeInfo;
import io.sluice.serializers.event.ChangeEvent;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Converts the Flink CDC MySQL source's Debezium records into {@link ChangeEvent}s with Canal's
 * value text, {@code sqlType} and {@code mysqlType} (see {@code docs/value-rendering.md}).
 *
 * <ul>
 *   <li>Snapshot reads and inserts become INSERT, updates UPDATE, deletes DELETE.
 *   <li>Schema-change records (with {@code includeSchemaChanges(true)}) become DDL events: CREATE,
 *       ALTER, ERASE, TRUNCATE, RENAME, CINDEX, DINDEX, or QUERY, carrying the statement.
 *   <li>Heartbeats, watermarks and transaction markers produce nothing.
 *   <li>With queries included (MySQL rows-query events), the first row of each DML statement
 *       carries the statement's text ({@link ChangeEvent#query()}); otherwise no row does, and
 *       nothing is looked up for it.
 * </ul>
 *
 * <p>This runs on the source's single emitting thread, so the work per row is kept small: each
 * table version's schema and per-column renderers are derived once and cached by the identity of
 * Debezium's envelope schema, and values are rendered straight into a reused row buffer.
 *
 * <p>It needs the Debezium properties of {@link #debeziumProperties()}; {@link
 * MySqlSourceFactory#changeEventSource} sets them.
 */
@PublicEvolving
public final class ChangeEventDeserializationSchema
        implements DebeziumDeserializationSchema<ChangeEvent> {

    private static final long serialVersionUID = 1L;

    private final ZoneId timestampZone;
    private final boolean includeQueries;

    /** The server asked once per subtask how it writes column types; null: types as declared. */
    private final SourceJdbc server;

    private transient ChangeRecordConverter converter;

    /**
     * @param timestampZone the zone TIMESTAMP column values are written in
     */
    public ChangeEventDeserializationSchema(ZoneId timestampZone) {
        this(timestampZone, false);
    }

    /**
     * @param timestampZone the zone TIMESTAMP column values are written in
     * @param includeQueries whether a statement's first row carries the statement's text; needs
     *     Debezium's {@code include.query} ({@link MySqlSourceFactory} sets it)
     */
    public ChangeEventDeserializationSchema(ZoneId timestampZone, boolean includeQueries) {
        this(timestampZone, includeQueries, null);
    }

    /**
     * @param server the source server, asked once per subtask for its version: mysqlType then takes
     *     the server's COLUMN_TYPE form also for types Debezium knows from a DDL's text ({@code
     *     int(11)} on MariaDB for a column declared {@code INT}; see {@code
     *     docs/value-rendering.md}); null keeps the types as Debezium states them
     */
    ChangeEventDeserializationSchema(
            ZoneId timestampZone, boolean includeQueries, SourceJdbc server) {
        this.timestampZone = Objects.requireNonNull(timestampZone, "timestampZone");
        this.includeQueries = includeQueries;
        this.server = server;
    }

    /**
     * The Debezium settings the conversion relies on.
     *
     * <ul>
     *   <li>{@code column.propagate.source.type}: every field schema carries the declared type,
     *       length and scale, from which {@code mysqlType} is built.
     *   <li>{@code decimal.handling.mode=precise}: DECIMAL as BigDecimal, with its scale.
     *   <li>{@code bigint.unsigned.handling.mode=precise}: BIGINT UNSIGNED beyond 2^63 stays exact.
     *   <li>{@code time.precision.mode=adaptive_time_microseconds}: TIME as signed microseconds, so
     *       negative values and values past 24 hours survive; DATETIME as a wall-clock count.
     *   <li>{@code binary.handling.mode=bytes}: binary values as raw bytes.
     *   <li>{@code converters}: TIMESTAMP as microseconds since the epoch ({@link
     *       TimestampMicrosConverter}), not as ISO text to be parsed back.
     * </ul>
     */
    public static Properties debeziumProperties() {
        Properties properties = new Properties();
        properties.setProperty("column.propagate.source.type", ".*");
        properties.setProperty("decimal.handling.mode", "precise");
        properties.setProperty("bigint.unsigned.handling.mode", "precise");
        properties.setProperty("time.precision.mode", "adaptive_time_microseconds");
        properties.setProperty("binary.handling.mode", "bytes");
        properties.setProperty("converters", TimestampMicrosConverter.NAME);
        properties.setProperty(
                TimestampMicrosConverter.NAME + ".type", TimestampMicrosConverter.class.getName());
        return properties;
    }

    @Override
    public void deserialize(SourceRecord record, Collector<ChangeEvent> out) {
        if (converter == null) {
            ColumnTypeStyle style =
                    server == null ? ColumnTypeStyle.AS_DECLARED : ColumnTypeStyle.of(server);
            converter =
                    new ChangeRecordConverter(
                            timestampZone, includeQueries, style, this::mariaDbTypes);
        }
        ChangeEvent event = converter.convert(record);
        if (event != null) {
            out.collect(event);
        }
    }

    /**
     * The UUID, INET4 and INET6 columns of a MariaDB table, which Debezium reads as BINARY(n): from
     * {@code information_schema}, once per table version.
     */
    private Map<String, String> mariaDbTypes(String database, String table) {
        if (server == null) {
            return Map.of();
        }
        try (Connection connection = server.connect()) {
            return MariaDbBinaryTypes.columns(connection, database, table);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot read the UUID, INET4 and INET6 columns of %s.%s from"
                                    + " information_schema at %s: %s",
                            database, table, server.address(), e.getMessage()),
                    e);
        }
    }

    @Override
    public TypeInformation<ChangeEvent> getProducedType() {
        return new ChangeEventTypeInfo();
    }
}
