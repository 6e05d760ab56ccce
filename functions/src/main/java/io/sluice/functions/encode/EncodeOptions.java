package io.sluice.functions.encode;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

import io.sluice.functions.progress.ProgressMarkers;

import java.time.Duration;
import java.util.List;

/**
 * Options of the encode operator: YAML section {@code encode.}; in SQL the sink tables' keys. The
 * SQL keys {@code format.group-rows*} of earlier releases still work, deprecated.
 */
@PublicEvolving
public final class EncodeOptions {

    public static final ConfigOption<MessageFormat> FORMAT =
            ConfigOptions.key("format")
                    .enumType(MessageFormat.class)
                    .defaultValue(MessageFormat.CANAL_FLAT)
                    .withDescription(
                            "Message format: canal-flat (Canal's FlatMessage JSON) or canal-binary"
                                    + " (Canal's protobuf).");

    public static final ConfigOption<GroupRows> GROUP_ROWS =
            ConfigOptions.key("group-rows")
                    .enumType(GroupRows.class)
                    .defaultValue(GroupRows.NONE)
                    .withDeprecatedKeys("format.group-rows")
                    .withDescription(
                            "none: one row per message. event: the rows of one binlog rows event"
                                    + " that go to the same partition share a message, as Canal"
                                    + " writes them (flat: several rows in 'data'/'old'; binary:"
                                    + " several RowDatas, header 'rowsCount' > 1). A message of"
                                    + " several rows has no key; statements and snapshot rows"
                                    + " stay one per message.");

    public static final ConfigOption<MemorySize> GROUP_ROWS_MAX_BYTES =
            ConfigOptions.key("group-rows.max-bytes")
                    .memoryType()
                    .defaultValue(MemorySize.parse("1mb"))
                    .withDeprecatedKeys("format.group-rows.max-bytes")
                    .withDescription(
                            "About the largest message that grouped rows make: a row that would"
                                    + " take its group's row data beyond this starts a new"
                                    + " message. A group above the sink's limit is written one"
                                    + " row per message, each judged by the large-message"
                                    + " policy. At least 1 kb.");

    public static final ConfigOption<Duration> GROUP_ROWS_IDLE_FLUSH =
            ConfigOptions.key("group-rows.idle-flush")
                    .durationType()
                    .defaultValue(Duration.ofMillis(20))
                    .withDeprecatedKeys("format.group-rows.idle-flush")
                    .withDescription(
                            "How long a pending group waits for more rows of its event when no"
                                    + " input arrives; then it is written. Checkpoints and the"
                                    + " next event write it sooner. Between 1 ms and 10 s.");

    public static final ConfigOption<ProgressMarkers> PROGRESS_MARKERS =
            ConfigOptions.key("progress-markers")
                    .enumType(ProgressMarkers.class)
                    .defaultValue(ProgressMarkers.OFF)
                    .withDescription(
                            "off: Canal's messages only. checkpoint: at every checkpoint, one"
                                    + " marker message in every partition of every topic the job"
                                    + " writes (or of 'progress-markers.topics'), in that"
                                    + " checkpoint's transaction, carrying the binlog position"
                                    + " every earlier message of the partition is at or before"
                                    + " and every later one after (docs/pipeline.md). Flat JSON:"
                                    + " type PROGRESS; binary: a TRANSACTIONEND entry. Kafka"
                                    + " only, with aligned checkpoints.");

    public static final ConfigOption<List<String>> PROGRESS_MARKERS_TOPICS =
            ConfigOptions.key("progress-markers.topics")
                    .stringType()
                    .asList()
                    .noDefaultValue()
                    .withDescription(
                            "With progress markers on, the only topics that get them, from the"
                                    + " first checkpoint on, whether written yet or not. Unset:"
                                    + " every topic the job has written to.");

    private EncodeOptions() {}
}
