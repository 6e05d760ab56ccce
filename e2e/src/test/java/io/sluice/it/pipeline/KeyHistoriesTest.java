package io.sluice.it.pipeline;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.pipeline.KeyHistories.Report;
import io.sluice.it.pipeline.KeyHistories.Verdict;
import io.sluice.it.pipeline.VersionedWriter.Fate;
import io.sluice.it.pipeline.VersionedWriter.Key;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What {@link KeyHistories} accepts as a row's exact history, and what it catches. */
class KeyHistoriesTest {

    private final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    private final Map<Key, Fate> fates = new HashMap<>();

    @Test
    void acceptsSnapshotRowsAtAnyVersionThenEveryChangeOnce() {
        fate(1, 0, 2, false);
        deliver(1, "INSERT", 0, "seed").deliver(1, "UPDATE", 1, "v1");
        deliver(1, "UPDATE", 2, "v2");
        // Read by its chunk at version 3, then changed once more and deleted.
        fate(2, 0, 4, true);
        deliver(2, "INSERT", 3, "v3").deliver(2, "UPDATE", 4, "v4").deliver(2, "DELETE", 4, "v4");
        // Born and deleted before its chunk was read: no history at all.
        fate(3, 0, 1, true);
        // Moved to key 4 (version + 1) after its chunk was read; key 4 is read by a later chunk.
        fate(4, 2, 2, false);
        deliver(4, "INSERT", 2, "moved from 9");

        Report report = judge();

        assertThat(report.exact()).as(report.toString()).isTrue();
        assertThat(report.count(Verdict.EXACT)).isEqualTo(3);
        assertThat(report.neverSeen).isEqualTo(1);
        assertThat(KeyHistories.of(rows()).finalRows())
                .containsExactly(
                        Map.entry(new Key("t1", 1), "2/v2"),
                        Map.entry(new Key("t1", 4), "2/moved from 9"));
    }

    @Test
    void aHistoryThatStopsShortIsIncomplete() {
        fate(1, 0, 3, false);
        deliver(1, "INSERT", 0, "seed").deliver(1, "UPDATE", 1, "v1");
        fate(2, 0, 0, false);
        fate(3, 0, 1, true);
        deliver(3, "INSERT", 0, "seed").deliver(3, "UPDATE", 1, "v1");

        Report report = judge();

        assertThat(report.count(Verdict.INCOMPLETE)).as(report.toString()).isEqualTo(3);
        assertThat(report.count(Verdict.WRONG)).isZero();
    }

    @Test
    void catchesDuplicatesGapsDisorderAndStrays() {
        // A chunk read twice: a second INSERT.
        fate(1, 0, 1, false);
        deliver(1, "INSERT", 0, "seed").deliver(1, "UPDATE", 1, "v1").deliver(1, "INSERT", 1, "v1");
        // A change written twice.
        fate(2, 0, 1, false);
        deliver(2, "INSERT", 0, "seed").deliver(2, "UPDATE", 1, "v1").deliver(2, "UPDATE", 1, "v1");
        // Two changes swapped.
        fate(3, 0, 2, false);
        deliver(3, "INSERT", 0, "seed").deliver(3, "UPDATE", 2, "v2").deliver(3, "UPDATE", 1, "v1");
        // The INSERT lost.
        fate(4, 0, 1, false);
        deliver(4, "UPDATE", 1, "v1");
        // A change after the DELETE.
        fate(5, 0, 1, true);
        deliver(5, "INSERT", 0, "seed").deliver(5, "DELETE", 0, "seed");
        deliver(5, "UPDATE", 1, "v1");
        // A row the load never wrote.
        deliver(6, "INSERT", 0, "seed");
        // A snapshot row older than the row.
        fate(7, 3, 3, false);
        deliver(7, "INSERT", 2, "v2");

        Report report = judge();

        assertThat(report.count(Verdict.WRONG)).as(report.toString()).isEqualTo(7);
    }

    private void fate(int id, int born, int version, boolean deleted) {
        Fate fate = new Fate(born, "seed");
        fate.version = version;
        fate.deleted = deleted;
        fates.put(new Key("t1", id), fate);
    }

    private KeyHistoriesTest deliver(int id, String type, int version, String note) {
        String json =
                String.format(
                        "{\"data\":[{\"id\":\"%d\",\"version\":\"%d\",\"note\":\"%s\"}],"
                                + "\"database\":\"db\",\"table\":\"t1\",\"type\":\"%s\","
                                + "\"isDdl\":false}",
                        id, version, note, type);
        records.add(
                new ConsumerRecord<>(
                        "topic", 0, records.size(), null, json.getBytes(StandardCharsets.UTF_8)));
        return this;
    }

    private List<Delivered> rows() {
        return Delivered.decode(records, MessageFormat.CANAL_FLAT);
    }

    private Report judge() {
        return KeyHistories.of(rows()).judge(fates);
    }
}
