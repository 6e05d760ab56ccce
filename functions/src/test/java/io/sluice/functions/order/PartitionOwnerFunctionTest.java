package io.sluice.functions.order;

import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.types.SinkMessageSerializer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartitionOwnerFunctionTest {

    private static SinkMessage copy(int origin) {
        return new SinkMessage("t", 0, null, new byte[] {1}, 0, "items", origin, 2);
    }

    @Test
    void mergesCopiesAndSnapshotsWhenNothingIsPending() throws Exception {
        try (OneInputStreamOperatorTestHarness<SinkMessage, SinkMessage> harness =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(new PartitionOwnerFunction()),
                        SinkMessageSerializer.INSTANCE)) {
            harness.setup(SinkMessageSerializer.INSTANCE);
            harness.open();
            harness.processElement(copy(0), 0);
            harness.processElement(copy(1), 0);
            harness.snapshot(1, 1);

            assertThat(harness.extractOutputValues())
                    .singleElement()
                    .satisfies(m -> assertThat(m.isCopy()).isFalse());
        }
    }

    @Test
    void refusesToSnapshotWhileMerging() throws Exception {
        try (OneInputStreamOperatorTestHarness<SinkMessage, SinkMessage> harness =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(new PartitionOwnerFunction()),
                        SinkMessageSerializer.INSTANCE)) {
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
