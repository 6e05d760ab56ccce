package io.sluice.functions.order;

import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.TwoInputStreamOperatorTestHarness;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.normalize.StatementRank;
import io.sluice.functions.progress.ProgressNote;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One owner of every partition (parallelism 1): markers go into each partition of each known topic
 * at each checkpoint, after the messages before it, with the newest position it was told and the
 * count of messages since the previous marker.
 */
class ProgressMarkingOwnerTest {

    private static final PartitionCounts.Factory COUNTS =
            () ->
                    new PartitionCounts() {
                        private final Map<String, Integer> counts = Map.of("t", 3, "u", 2);

                        @Override
                        public int countOf(String topic) {
                            return counts.get(topic);
                        }

                        @Override
                        public void close() {}
                    };

    @Test
    void marksEveryPartitionOfEveryTopicItLearnedWithThePositionAndCounts() throws Exception {
        ProgressMarkingOwner owner =
                new ProgressMarkingOwner(MessageFormat.CANAL_FLAT, COUNTS, null);
        try (TwoInputStreamOperatorTestHarness<OrderedMessage, ProgressNote, SinkMessage> harness =
                harness(owner)) {
            harness.prepareSnapshotPreBarrier(1);
            assertThat(harness.extractOutputValues()).as("no position yet: no marker").isEmpty();

            harness.processElement2(new StreamRecord<>(ProgressNote.topic("t")));
            harness.processElement2(new StreamRecord<>(position("bin.000001", 400, 0)));
            harness.processElement1(new StreamRecord<>(message("t", 1)));
            harness.processElement1(new StreamRecord<>(message("t", 1)));
            harness.processElement1(new StreamRecord<>(message("t", 2)));
            // An older position from another source subtask does not move it back.
            harness.processElement2(new StreamRecord<>(position("bin.000001", 300, 5)));
            harness.prepareSnapshotPreBarrier(2);

            List<String> out = describe(harness.extractOutputValues());
            assertThat(out)
                    .containsExactly(
                            "t/1 row",
                            "t/1 row",
                            "t/2 row",
                            "t/0 marker 2 bin.000001:400 messages 0",
                            "t/1 marker 2 bin.000001:400 messages 2",
                            "t/2 marker 2 bin.000001:400 messages 1");
            assertThat(owner.markersWritten()).isEqualTo(3);

            harness.getOutput().clear();
            harness.processElement2(new StreamRecord<>(ProgressNote.topic("u")));
            harness.processElement2(new StreamRecord<>(position("bin.000002", 4, 0)));
            harness.prepareSnapshotPreBarrier(3);
            assertThat(describe(harness.extractOutputValues()))
                    .as("idle partitions too, and a new topic's")
                    .containsExactly(
                            "t/0 marker 3 bin.000002:4 messages 0",
                            "t/1 marker 3 bin.000002:4 messages 0",
                            "t/2 marker 3 bin.000002:4 messages 0",
                            "u/0 marker 3 bin.000002:4 messages 0",
                            "u/1 marker 3 bin.000002:4 messages 0");
            assertThat(owner.markersWritten()).isEqualTo(8);
        }
    }

    @Test
    void configuredTopicsAreTheOnlyOnesMarkedFromTheStart() throws Exception {
        ProgressMarkingOwner owner =
                new ProgressMarkingOwner(MessageFormat.CANAL_FLAT, COUNTS, List.of("u"));
        try (TwoInputStreamOperatorTestHarness<OrderedMessage, ProgressNote, SinkMessage> harness =
                harness(owner)) {
            harness.processElement2(new StreamRecord<>(ProgressNote.topic("t")));
            harness.processElement2(new StreamRecord<>(position("bin.000001", 400, 0)));
            harness.processElement1(new StreamRecord<>(message("t", 1)));
            harness.prepareSnapshotPreBarrier(7);
            assertThat(describe(harness.extractOutputValues()))
                    .containsExactly(
                            "t/1 row",
                            "u/0 marker 7 bin.000001:400 messages 0",
                            "u/1 marker 7 bin.000001:400 messages 0");
        }
    }

    @Test
    void theNotesWatermarksDoNotHoldStatementsBack() throws Exception {
        try (TwoInputStreamOperatorTestHarness<OrderedMessage, ProgressNote, SinkMessage> harness =
                harness(new ProgressMarkingOwner(MessageFormat.CANAL_FLAT, COUNTS, null))) {
            // A row after the first statement waits until the messages' watermark passes it.
            harness.processElement1(
                    new StreamRecord<>(
                            new OrderedMessage(sinkMessage("t", 0), StatementRank.rowRank(1))));
            assertThat(harness.extractOutputValues()).isEmpty();
            harness.processWatermark1(new Watermark(1));
            assertThat(harness.extractOutputValues()).hasSize(1);
        }
    }

    private static TwoInputStreamOperatorTestHarness<OrderedMessage, ProgressNote, SinkMessage>
            harness(ProgressMarkingOwner owner) throws Exception {
        TwoInputStreamOperatorTestHarness<OrderedMessage, ProgressNote, SinkMessage> harness =
                new TwoInputStreamOperatorTestHarness<>(owner);
        harness.open();
        return harness;
    }

    private static OrderedMessage message(String topic, int partition) {
        return new OrderedMessage(sinkMessage(topic, partition), StatementRank.rowRank(0));
    }

    private static SinkMessage sinkMessage(String topic, int partition) {
        return new SinkMessage(
                topic,
                partition,
                null,
                "{\"type\":\"INSERT\"}".getBytes(StandardCharsets.UTF_8),
                0);
    }

    private static ProgressNote position(String file, long position, int row) {
        TableSchema schema =
                TableSchema.builder("d", "x").column("id", "int(11)", Types.INTEGER, true).build();
        return ProgressNote.positionOf(
                ChangeEvent.builder(schema, ChangeType.INSERT)
                        .after(new RowImage.Builder().append(1).build())
                        .binlog(file, position, row)
                        .build());
    }

    private static List<String> describe(List<SinkMessage> messages) {
        List<String> out = new ArrayList<>();
        for (SinkMessage message : messages) {
            JSONObject json = JSON.parseObject(message.value());
            String where = message.topic() + "/" + message.partition();
            if (!"PROGRESS".equals(json.getString("type"))) {
                out.add(where + " row");
                continue;
            }
            JSONObject progress = json.getJSONObject("sluiceProgress");
            out.add(
                    where
                            + " marker "
                            + progress.getLongValue("checkpointId")
                            + " "
                            + progress.getString("binlogFile")
                            + ":"
                            + progress.getLongValue("binlogPosition")
                            + " messages "
                            + progress.getLongValue("messages"));
        }
        return out;
    }
}
