package io.sluice.functions.order;

import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.normalize.StatementRank;
import io.sluice.functions.types.OrderedMessageSerializer;
import io.sluice.functions.types.SinkMessageSerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paths A, B (and C) feed one owner of partitions; a statement travels on A. Each message is ranked
 * by the statements its path had passed (its watermark), as {@link StatementRank} ranks it.
 */
class StatementOrderOperatorTest {

    private static final long NONE = Long.MIN_VALUE;

    private static OrderedMessage row(String name, long pathWatermark) {
        return message(name, StatementRank.rowRank(pathWatermark));
    }

    private static OrderedMessage statement(String name, long pathWatermark) {
        return message(name, StatementRank.statementRank(pathWatermark));
    }

    private static OrderedMessage message(String name, long rank) {
        return message(name, 0, rank);
    }

    private static OrderedMessage message(String name, int partition, long rank) {
        return new OrderedMessage(
                new SinkMessage(
                        "t", partition, null, name.getBytes(StandardCharsets.UTF_8), 0, "items"),
                rank);
    }

    private static OneInputStreamOperatorTestHarness<OrderedMessage, SinkMessage> harness()
            throws Exception {
        OneInputStreamOperatorTestHarness<OrderedMessage, SinkMessage> harness =
                new OneInputStreamOperatorTestHarness<>(
                        new StatementOrderOperator(), OrderedMessageSerializer.INSTANCE);
        harness.setup(SinkMessageSerializer.INSTANCE);
        harness.open();
        return harness;
    }

    /** The names of the messages written so far, and "wm n" for each watermark passed on. */
    private static List<String> written(
            OneInputStreamOperatorTestHarness<OrderedMessage, SinkMessage> harness) {
        List<String> names = new ArrayList<>();
        for (Object element : harness.getOutput()) {
            if (element instanceof Watermark) {
                names.add("wm " + ((Watermark) element).getTimestamp());
            } else {
                @SuppressWarnings("unchecked")
                SinkMessage message =
                        ((org.apache.flink.streaming.runtime.streamrecord.StreamRecord<SinkMessage>)
                                        element)
                                .getValue();
                names.add(new String(message.value(), StandardCharsets.UTF_8));
            }
        }
        return names;
    }

    @Test
    void aStatementWaitsForEveryPathThenGoesBeforeTheRowsThatFollowedIt() throws Exception {
        try (OneInputStreamOperatorTestHarness<OrderedMessage, SinkMessage> harness = harness()) {
            harness.processElement(row("a1", NONE), 0);
            harness.processElement(statement("alter", NONE), 0); // A, before its watermark 1
            harness.processElement(row("b1", NONE), 0); // B has not reached the statement
            harness.processElement(row("b2", 1), 0); // B passed watermark 1: after the statement
            harness.processElement(row("a2", 1), 0);

            assertThat(written(harness)).containsExactly("a1", "b1");
            assertThat(harness.getOneInputOperator())
                    .satisfies(
                            op -> assertThat(((StatementOrderOperator) op).isWaiting()).isTrue());

            harness.processWatermark(new Watermark(1)); // every path passed the statement
            harness.processElement(row("b3", 1), 0);

            assertThat(written(harness))
                    .containsExactly("a1", "b1", "alter", "b2", "a2", "wm 1", "b3");
            assertThat(((StatementOrderOperator) harness.getOneInputOperator()).isWaiting())
                    .as("nothing is kept once every path passed")
                    .isFalse();
        }
    }

    @Test
    void aStatementsMessageForEachPartitionTakesItsPlaceInThatPartition() throws Exception {
        long before = StatementRank.rowRank(NONE);
        long alter = StatementRank.statementRank(NONE);
        long after = StatementRank.rowRank(1);
        try (OneInputStreamOperatorTestHarness<OrderedMessage, SinkMessage> harness = harness()) {
            harness.processElement(message("p0 a1", 0, before), 0);
            harness.processElement(message("p0 alter", 0, alter), 0); // one message per partition
            harness.processElement(message("p1 alter", 1, alter), 0);
            harness.processElement(message("p1 b-after", 1, after), 0); // B passed it
            harness.processElement(message("p1 c-before", 1, before), 0); // C has not reached it
            harness.processElement(message("p0 a-after", 0, after), 0);

            assertThat(written(harness)).containsExactly("p0 a1", "p1 c-before");

            harness.processWatermark(new Watermark(1));

            assertThat(written(harness))
                    .containsExactly(
                            "p0 a1",
                            "p1 c-before",
                            "p0 alter",
                            "p1 alter",
                            "p1 b-after",
                            "p0 a-after",
                            "wm 1");
            assertThat(((StatementOrderOperator) harness.getOneInputOperator()).isWaiting())
                    .isFalse();
        }
    }

    @Test
    void statementsInARowEachTakeTheirTurn() throws Exception {
        try (OneInputStreamOperatorTestHarness<OrderedMessage, SinkMessage> harness = harness()) {
            harness.processElement(statement("s1", NONE), 0);
            harness.processElement(row("b-after-s1", 1), 0);
            harness.processElement(statement("s2", 1), 0);
            harness.processElement(row("b-after-s2", 2), 0);
            harness.processElement(row("a-after-s2", 2), 0);
            harness.processWatermark(new Watermark(1));

            assertThat(written(harness)).containsExactly("s1", "b-after-s1", "wm 1");

            harness.processWatermark(new Watermark(2));

            assertThat(written(harness))
                    .containsExactly(
                            "s1", "b-after-s1", "wm 1", "s2", "b-after-s2", "a-after-s2", "wm 2");
        }
    }

    @Test
    void whatWaitsAtACheckpointIsWrittenBeforeTheBarrier() throws Exception {
        try (OneInputStreamOperatorTestHarness<OrderedMessage, SinkMessage> harness = harness()) {
            harness.processElement(statement("alter", NONE), 0);
            harness.processElement(row("b2", 1), 0);

            harness.prepareSnapshotPreBarrier(4);

            assertThat(written(harness)).containsExactly("alter", "b2");
            assertThat(((StatementOrderOperator) harness.getOneInputOperator()).isWaiting())
                    .isFalse();
        }
    }

    @Test
    void theEndOfInputReleasesEverything() throws Exception {
        try (OneInputStreamOperatorTestHarness<OrderedMessage, SinkMessage> harness = harness()) {
            harness.processElement(statement("alter", 4), 0);
            harness.processElement(row("after", 5), 0);
            harness.processWatermark(new Watermark(Long.MAX_VALUE));

            assertThat(written(harness)).containsExactly("alter", "after", "wm " + Long.MAX_VALUE);
        }
    }

    @Test
    void ranksOrderAStatementBetweenTheRowsAroundIt() {
        assertThat(StatementRank.rowRank(NONE)).isEqualTo(1);
        assertThat(StatementRank.statementRank(NONE)).isEqualTo(2);
        assertThat(StatementRank.rowRank(1)).isEqualTo(3);
        assertThat(StatementRank.statementRank(1)).isEqualTo(4);
        assertThat(StatementRank.needed(StatementRank.statementRank(1))).isEqualTo(2);
        assertThat(StatementRank.rowRank(Long.MAX_VALUE)).isZero();
        assertThat(StatementRank.needed(0)).isZero();
    }
}
