package io.sluice.serializers.debezium;

import java.io.Serializable;
import java.time.ZoneId;
import java.util.Objects;

/**
 * How {@link DebeziumJsonEncoder} writes: Debezium's {@code topic.prefix} (the logical server name
 * in {@code source.name} and in the schema names), whether the JSON schema travels with each key
 * and value (JsonConverter's {@code schemas.enable}), whether a DELETE is followed by a tombstone
 * ({@code tombstones.on.delete}), and the zone Sluice's TIMESTAMP text is in.
 */
public final class DebeziumJsonSettings implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String topicPrefix;
    private final boolean schemas;
    private final boolean tombstones;
    private final String timestampZone;

    public DebeziumJsonSettings(
            String topicPrefix, boolean schemas, boolean tombstones, String timestampZone) {
        this.topicPrefix = Objects.requireNonNull(topicPrefix, "topicPrefix must not be null");
        this.schemas = schemas;
        this.tombstones = tombstones;
        this.timestampZone = Objects.requireNonNull(timestampZone, "timestampZone is null");
        ZoneId.of(timestampZone); // fails early on a bad zone
    }

    /** Debezium's defaults: schemas and tombstones on, TIMESTAMP text in UTC. */
    public static DebeziumJsonSettings defaults(String topicPrefix) {
        return new DebeziumJsonSettings(topicPrefix, true, true, "UTC");
    }

    public String topicPrefix() {
        return topicPrefix;
    }

    public boolean schemas() {
        return schemas;
    }

    public boolean tombstones() {
        return tombstones;
    }

    public ZoneId timestampZone() {
        return ZoneId.of(timestampZone);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DebeziumJsonSettings)) {
            return false;
        }
        DebeziumJsonSettings that = (DebeziumJsonSettings) o;
        return schemas == that.schemas
                && tombstones == that.tombstones
                && topicPrefix.equals(that.topicPrefix)
                && timestampZone.equals(that.timestampZone);
    }

    @Override
    public int hashCode() {
        return Objects.hash(topicPrefix, schemas, tombstones, timestampZone);
    }

    @Override
    public String toString() {
        return "debezium-json(prefix="
                + topicPrefix
                + ", schemas="
                + schemas
                + ", tombstones="
                + tombstones
                + ", timestamps in "
                + timestampZone
                + ")";
    }
}
