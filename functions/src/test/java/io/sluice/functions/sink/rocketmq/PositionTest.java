package io.sluice.functions.sink.rocketmq;

import io.sluice.functions.sink.rocketmq.internal.Position;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PositionTest {

    @Test
    void roundTripsThroughItsText() {
        Position position = new Position(-42L, 7, 3);
        assertThat(Position.parse(position.format())).isEqualTo(position);
        // The committer stamps a committable's messages with its prefix and their index.
        assertThat(Position.parse(Position.prefix(-42L, 7) + 3)).isEqualTo(position);
    }

    @Test
    void foreignOrMissingStampsAreNotPositions() {
        assertThat(Position.parse(null)).isNull();
        assertThat(Position.parse("hello")).isNull();
        assertThat(Position.parse("zz:1:2")).isNull();
    }

    @Test
    void ordersWithinOneRunOnly() {
        Position tail = new Position(5, 10, 4);
        assertThat(new Position(5, 10, 4).notAfter(tail)).isTrue();
        assertThat(new Position(5, 10, 3).notAfter(tail)).isTrue();
        assertThat(new Position(5, 9, 99).notAfter(tail)).isTrue();
        assertThat(new Position(5, 10, 5).notAfter(tail)).isFalse();
        assertThat(new Position(5, 11, 0).notAfter(tail)).isFalse();
        // Another run's messages are never taken as sent: a rollback duplicates, never loses.
        assertThat(new Position(6, 0, 0).notAfter(tail)).isFalse();
    }
}
