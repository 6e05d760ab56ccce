package io.sluice.functions.order;

import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.types.OrderedMessageSerializer;
import io.sluice.functions.types.SinkMessageSerializer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionOwnerFunctionTest {

    private static final SinkMessage DDL =
            new SinkMessage("t", 0, null, new byte[] {1}, 0, "items");

    private static OrderedMessage copy(int origin) {
        return new OrderedMessage(DDL, origin, 2, 0);
    }

    @Test
    void mergesCopiesAndSnapshotsWhenNothingIsPending() throws Exception {
        try (OneInputStreamOperatorTestHarness<OrderedMessage, SinkMessage> harness =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(new PartitionOwnerFunction()),
                        OrderedMessageSerializer.INSTANCE)) {
            harness.setup(SinkMessageSerializer.INSTANCE);
            harness.open();
            harness.processElement(copy(0), 0);
            harness.processElement(copy(1), 0);
            harness.snapshot(1, 1);

            assertThat(harness.extractOutputValues()).containsExactly(DDL);
        }
    }

    @Test
    void refusesToSnapshotWhileMerging() throws Exception {
        try (OneInputStreamOperatorTestHarness<OrderedMessage, SinkMessage> harness =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(new PartitionOwnerFunction()),
                        OrderedMessageSerializer.INSTANCE)) {
            harness.setup(SinkMessageSerializer.INSTANCE);
            harness.open();
            harness.processElement(copy(0), 0);

            assertThatThrownBy(() -> harness.snapshot(7, 1))
                    .rootCause()
                    .hasMessageContaining("Checkpoint 7 arrived while statements were still")
                    .hasMessageContaining("execution.checkpointing.unaligned.enabled");
        }
    }

    @Test
    void ownersSpreadATopicsPartitionsAndNeverMove() {
        assertThat(PartitionOwnerPartitioner.ownerOf("orders", 0, 3))
                .isEqualTo(PartitionOwnerPartitioner.ownerOf("orders", 0, 3));
        assertThat(
                        java.util.stream.IntStream.range(0, 3)
                                .map(p -> PartitionOwnerPartitioner.ownerOf("orders", p, 3))
                                .distinct()
                                .count())
                .isEqualTo(3);
        assertThat(PartitionOwnerPartitioner.ownerOf("orders", 5, 1)).isZero();
    }
}
