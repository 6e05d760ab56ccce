package io.sluice.functions.order;

import org.junit.jupiter.api.Test;

import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class PartitionOwnerPartitionerTest {

    @Test
    void ownersSpreadATopicsPartitionsAndNeverMove() {
        assertThat(PartitionOwnerPartitioner.ownerOf("orders", 0, 3))
                .isEqualTo(PartitionOwnerPartitioner.ownerOf("orders", 0, 3));
        assertThat(
                        IntStream.range(0, 3)
                                .map(p -> PartitionOwnerPartitioner.ownerOf("orders", p, 3))
                                .distinct()
                                .count())
                .isEqualTo(3);
        assertThat(PartitionOwnerPartitioner.ownerOf("orders", 5, 1)).isZero();
    }
}
