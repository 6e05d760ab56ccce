package io.sluice.functions.normalize;

import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

import io.sluice.functions.progress.ProgressNote;
import io.sluice.functions.progress.ProgressNotes;
import io.sluice.functions.types.ChangeEventSerializer;
import io.sluice.functions.types.RoutedChangeSerializer;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Normalize reports, before each barrier, the position of the last binlog change it handed on
 * (snapshot rows have none), and a restored subtask reports the checkpoint's position.
 */
class NormalizeOperatorTest {

    private static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .build();

    @Test
    void reportsTheLastBinlogPositionBeforeEachBarrierAndAfterARestore() throws Exception {
        OperatorSubtaskState state;
        try (OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> harness = harness(true)) {
            harness.initializeEmptyState();
            harness.open();
            harness.processElement(change(1, "", 0), 0);
            harness.prepareSnapshotPreBarrier(1);
            assertThat(notes(harness)).as("a snapshot row has no position").isEmpty();

            harness.processElement(change(2, "bin.000001", 400), 0);
            harness.processElement(change(3, "bin.000001", 500), 0);
            harness.prepareSnapshotPreBarrier(2);
            assertThat(notes(harness)).containsExactly("bin.000001:500#0 gtid ");
            state = harness.snapshot(2, 0);
        }
        try (OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> restored =
                harness(true)) {
            restored.initializeState(state);
            restored.open();
            restored.prepareSnapshotPreBarrier(3);
            assertThat(notes(restored)).containsExactly("bin.000001:500#0 gtid ");
        }
    }

    @Test
    void reportsNothingWithMarkersOff() throws Exception {
        try (OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> harness =
                harness(false)) {
            harness.initializeEmptyState();
            harness.open();
            harness.processElement(change(2, "bin.000001", 400), 0);
            harness.prepareSnapshotPreBarrier(1);
            assertThat(notes(harness)).isEmpty();
            assertThat(harness.extractOutputValues()).hasSize(1);
        }
    }

    private static OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> harness(
            boolean markers) throws Exception {
        OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> harness =
                new OneInputStreamOperatorTestHarness<>(
                        new NormalizeOperator(new ChangeNormalizer(false, null, 0), markers),
                        new ChangeEventSerializer());
        harness.setup(new RoutedChangeSerializer());
        return harness;
    }

    private static List<String> notes(
            OneInputStreamOperatorTestHarness<ChangeEvent, RoutedChange> harness) {
        List<String> out = new ArrayList<>();
        ConcurrentLinkedQueue<StreamRecord<ProgressNote>> side =
                harness.getSideOutput(ProgressNotes.TAG);
        if (side != null) {
            side.forEach(record -> out.add(record.getValue().toString()));
            side.clear();
        }
        return out;
    }

    private static ChangeEvent change(int id, String file, long position) {
        return ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                .after(new RowImage.Builder().append(id).build())
                .binlog(file, position, 0)
                .build();
    }
}
