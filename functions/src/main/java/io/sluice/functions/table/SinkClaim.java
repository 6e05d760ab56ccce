package io.sluice.functions.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.factories.FactoryUtil;

import io.sluice.functions.sink.KafkaSinkOptions;
import io.sluice.functions.sink.rocketmq.RocketMqSinkOptions;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a Sluice sink table holds alone within one job when it writes exactly once: a {@code
 * sluice-kafka} table its {@code transactional-id-prefix} (two sinks with one prefix fence each
 * other's transactions), a {@code sluice-rocketmq} table its {@code producer-group} (the
 * write-ahead log's replay reads the queues' tails as its own). Two INSERTs into one such table are
 * two sinks, so they collide too. At-least-once sinks claim nothing.
 *
 * @param connector the table's connector
 * @param option the SQL key of the claimed option
 * @param value its value, the default applied
 * @param table the table that claims it
 */
@Internal
public record SinkClaim(String connector, String option, String value, ObjectIdentifier table) {

    /** The claim of a table with {@code options}, if it is a Sluice sink writing exactly once. */
    public static Optional<SinkClaim> of(ObjectIdentifier table, Map<String, String> options) {
        String connector = options.get(FactoryUtil.CONNECTOR.key());
        if (!KafkaDynamicTableFactory.IDENTIFIER.equals(connector)
                && !RocketMqDynamicTableFactory.IDENTIFIER.equals(connector)) {
            return Optional.empty();
        }
        boolean kafka = KafkaDynamicTableFactory.IDENTIFIER.equals(connector);
        ConfigOption<DeliveryGuarantee> guaranteeOption =
                kafka
                        ? KafkaSinkOptions.DELIVERY_GUARANTEE
                        : RocketMqSinkOptions.DELIVERY_GUARANTEE;
        String guarantee =
                options.getOrDefault(
                        guaranteeOption.key(), guaranteeOption.defaultValue().toString());
        // Flink parses enum values ignoring case and '-' versus '_'.
        if (!normalized(guarantee).equals(normalized(DeliveryGuarantee.EXACTLY_ONCE.toString()))) {
            return Optional.empty();
        }
        if (kafka) {
            return Optional.of(
                    claim(
                            connector,
                            KafkaSinkOptions.TRANSACTIONAL_ID_PREFIX.key(),
                            table,
                            options,
                            KafkaSinkOptions.TRANSACTIONAL_ID_PREFIX.defaultValue()));
        }
        return Optional.of(
                claim(
                        connector,
                        RocketMqSinkOptions.PRODUCER_GROUP.key(),
                        table,
                        options,
                        RocketMqSinkOptions.PRODUCER_GROUP.defaultValue()));
    }

    /** Whether this and {@code other} cannot run in one job. */
    public boolean collidesWith(SinkClaim other) {
        return connector.equals(other.connector) && value.equals(other.value);
    }

    /** Why this and {@code other} (claimed earlier) cannot run in one job, and the way out. */
    public String conflictWith(SinkClaim other) {
        String why =
                KafkaDynamicTableFactory.IDENTIFIER.equals(connector)
                        ? "two exactly-once Kafka sinks with one prefix fence each other's"
                                + " transactions (ProducerFencedException)"
                        : "two exactly-once RocketMQ sinks with one group would each take the"
                                + " other's messages for its own when replaying its write-ahead"
                                + " log";
        if (table.equals(other.table)) {
            return String.format(
                    "table '%s' is written by two sinks, both with '%s' = '%s'; %s. One sink per"
                            + " '%s' in a job: combine the INSERTs into one with UNION ALL, or"
                            + " write to a second table with its own '%s'",
                    table.asSummaryString(), option, value, why, option, option);
        }
        return String.format(
                "table '%s' has '%s' = '%s', as table '%s' written before does; %s. One sink per"
                        + " '%s' in a job: give each table its own '%s'",
                table.asSummaryString(),
                option,
                value,
                other.table.asSummaryString(),
                why,
                option,
                option);
    }

    private static SinkClaim claim(
            String connector,
            String option,
            ObjectIdentifier table,
            Map<String, String> options,
            String fallback) {
        return new SinkClaim(connector, option, options.getOrDefault(option, fallback), table);
    }

    private static String normalized(String enumValue) {
        return enumValue.replace('_', '-').toLowerCase(Locale.ROOT);
    }

    // Written out: the generated ones would keep the job's class loader alive in a
    // session cluster on Java 17 (JDK-8078641).
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SinkClaim)) {
            return false;
        }
        SinkClaim other = (SinkClaim) o;
        return Objects.equals(connector, other.connector)
                && Objects.equals(option, other.option)
                && Objects.equals(value, other.value)
                && Objects.equals(table, other.table);
    }

    @Override
    public int hashCode() {
        return Objects.hash(connector, option, value, table);
    }

    @Override
    public String toString() {
        return "SinkClaim[connector="
                + connector
                + ", option="
                + option
                + ", value="
                + value
                + ", table="
                + table
                + "]";
    }
}
