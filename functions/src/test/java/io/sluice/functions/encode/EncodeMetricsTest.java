package io.sluice.functions.encode;

import org.apache.flink.metrics.testutils.MetricListener;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;

import static org.assertj.core.api.Assertions.assertThat;

class EncodeMetricsTest {

    private static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .build();

    @Test
    void countsRowsMessagesAndBytesPerTopic() {
        MetricListener listener = new MetricListener();
        EncodeMetrics metrics = new EncodeMetrics(listener.getMetricGroup());
        ChangeEvent insert =
                ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                        .after(new RowImage.Builder().append(1).build())
                        .build();
        ChangeEvent alter =
                ChangeEvent.builder(ITEMS, ChangeType.ALTER).sql("ALTER TABLE items").build();

        metrics.encoded(insert, "orders", 100);
        metrics.encoded(insert, "orders", 50);
        metrics.encoded(alter, "audit", 10);
        metrics.encoded(
                ChangeEvent.queryOf(
                        ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                                .after(new RowImage.Builder().append(2).build())
                                .query("INSERT INTO items VALUES (2)")
                                .build()),
                "orders",
                20);

        assertThat(listener.getCounter("rowsIn").orElseThrow().getCount()).isEqualTo(2);
        assertThat(listener.getCounter("queriesOut").orElseThrow().getCount()).isEqualTo(1);
        assertThat(listener.getCounter("messagesOut").orElseThrow().getCount()).isEqualTo(4);
        assertThat(listener.getCounter("bytesOut").orElseThrow().getCount()).isEqualTo(180);
        assertThat(listener.getCounter("topic", "orders", "messages").orElseThrow().getCount())
                .isEqualTo(3);
        assertThat(listener.getCounter("topic", "orders", "bytes").orElseThrow().getCount())
                .isEqualTo(170);
        assertThat(listener.getCounter("topic", "audit", "bytes").orElseThrow().getCount())
                .isEqualTo(10);
    }
}
