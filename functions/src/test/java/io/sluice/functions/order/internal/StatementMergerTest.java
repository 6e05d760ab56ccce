package io.sluice.functions.order.internal;

import org.apache.flink.api.common.functions.util.ListCollector;

import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StatementMergerTest {

    private final StatementMerger merger = new StatementMerger();
    private final List<SinkMessage> out = new ArrayList<>();

    private static OrderedMessage row(String value, int origin) {
        return message("t", 0, value, origin, 0);
    }

    private static OrderedMessage copy(String value, int origin, int copies) {
        return message("t", 0, value, origin, copies);
    }

    private static OrderedMessage message(
            String topic, int partition, String value, int origin, int copies) {
        return new OrderedMessage(
                new SinkMessage(
                        topic, partition, null, value.getBytes(StandardCharsets.UTF_8), 0, "items"),
                origin,
                copies,
                0);
    }

    private void accept(OrderedMessage... messages) {
        for (OrderedMessage message : messages) {
            merger.accept(message, new ListCollector<>(out));
        }
    }

    private List<String> written() {
        List<String> values = new ArrayList<>();
        for (SinkMessage message : out) {
            values.add(new String(message.value(), StandardCharsets.UTF_8));
        }
        return values;
    }

    @Test
    void rowsPassWhenNothingIsPending() {
        accept(row("a", 0), row("b", 1));

        assertThat(written()).containsExactly("a", "b");
        assertThat(merger.isMerging()).isFalse();
    }

    @Test
    void statementWaitsForEveryPathAndHoldsWhatFollowsOnPathsThatDelivered() {
        // Path 0 delivers its copy first; its later row must wait. Path 1 still carries an
        // earlier row, which must pass before the statement.
        accept(row("r0-before", 0), copy("ddl", 0, 2), row("r0-after", 0), row("r1-before", 1));
        assertThat(written()).containsExactly("r0-before", "r1-before");
        assertThat(merger.isMerging()).isTrue();

        accept(copy("ddl", 1, 2), row("r1-after", 1));

        assertThat(written())
                .containsExactly("r0-before", "r1-before", "ddl", "r0-after", "r1-after");
        assertThat(merger.isMerging()).as("state cleaned up").isFalse();
    }

    @Test
    void successiveStatementsKeepTheirOrderAndRowsBetweenThem() {
        accept(
                copy("ddl1", 0, 2),
                row("a", 0),
                copy("ddl2", 0, 2),
                row("b", 0),
                copy("ddl1", 1, 2));

        assertThat(written()).containsExactly("ddl1", "a");

        accept(row("c", 1), copy("ddl2", 1, 2));

        assertThat(written()).containsExactly("ddl1", "a", "c", "ddl2", "b");
        assertThat(merger.isMerging()).isFalse();
    }

    @Test
    void otherPartitionsAreNotHeld() {
        accept(copy("ddl", 0, 2), message("t", 1, "other-partition", 0, 0));
        accept(message("u", 0, "other-topic", 0, 0));

        assertThat(written()).containsExactly("other-partition", "other-topic");
    }

    @Test
    void singlePathStatementIsWrittenAtOnce() {
        accept(copy("ddl", 0, 1), row("a", 0));

        assertThat(written()).containsExactly("ddl", "a");
        assertThat(merger.isMerging()).isFalse();
    }

    @Test
    void mismatchedCopyCountIsAnError() {
        accept(copy("ddl", 0, 2));

        assertThatThrownBy(() -> accept(copy("ddl", 1, 3)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not match the 2 paths of t/0");
    }
}
