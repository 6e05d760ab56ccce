package io.sluice.functions.source.internal;

import org.apache.flink.cdc.connectors.mysql.source.config.ServerIdRange;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DrawnServerIdsTest {

    @Test
    void everyRangeFitsFlinkCdcsIntServerIds() {
        assertThat(DrawnServerIds.FIRST + DrawnServerIds.RANGES * DrawnServerIds.WIDTH - 1)
                .isLessThanOrEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void rangesDrawnInOneJvmDoNotOverlapAndStayInTheServerIdSpace() {
        List<ServerIdRange> drawn = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            drawn.add(ServerIdRange.from(DrawnServerIds.next()));
        }
        for (int i = 0; i < drawn.size(); i++) {
            ServerIdRange range = drawn.get(i);
            assertThat(range.getNumberOfServerIds()).isEqualTo(DrawnServerIds.WIDTH);
            assertThat((long) range.getStartServerId())
                    .isGreaterThanOrEqualTo(DrawnServerIds.FIRST);
            for (int j = 0; j < i; j++) {
                ServerIdRange other = drawn.get(j);
                assertThat(
                                range.getEndServerId() < other.getStartServerId()
                                        || other.getEndServerId() < range.getStartServerId())
                        .as("%s and %s overlap", range, other)
                        .isTrue();
            }
        }
    }
}
