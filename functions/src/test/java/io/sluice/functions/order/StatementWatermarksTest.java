package io.sluice.functions.order;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class StatementWatermarksTest {

    private static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .build();

    private static final ChangeEvent ROW =
            ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                    .after(new RowImage.Builder().append(1).build())
                    .build();

    private static final ChangeEvent ALTER =
            ChangeEvent.builder(ITEMS, ChangeType.ALTER).sql("ALTER TABLE items ADD c INT").build();

    /** Records what a generator emits. */
    private static final class Recorded implements WatermarkOutput {
        final List<String> events = new ArrayList<>();

        @Override
        public void emitWatermark(Watermark watermark) {
            events.add("wm " + watermark.getTimestamp());
        }

        @Override
        public void markIdle() {
            events.add("idle");
        }

        @Override
        public void markActive() {
            events.add("active");
        }
    }

    @Test
    void countsStatementsAndIsIdleUntilTheFirst() {
        StatementWatermarks generator = new StatementWatermarks();
        Recorded out = new Recorded();

        generator.onPeriodicEmit(out);
        generator.onEvent(ROW, 0, out);
        generator.onPeriodicEmit(out);
        generator.onEvent(ALTER, 0, out);
        generator.onEvent(ROW, 0, out);
        generator.onPeriodicEmit(out);
        generator.onEvent(ALTER, 0, out);

        assertThat(out.events).containsExactly("idle", "idle", "wm 1", "wm 2");
    }
}
