package io.sluice.functions.types;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What Sluice adds to the contract: shared schemas, and a snapshot savepoints can rely on. */
class ChangeEventSerializerSchemaTest {

    @Test
    void changesOfOneTableShareOneSchemaAfterDeserialization() throws IOException {
        ChangeEvent[] changes = ChangeEventSerializerTest.testData();
        ChangeEventSerializer writer = new ChangeEventSerializer();
        DataOutputSerializer out = new DataOutputSerializer(1024);
        for (ChangeEvent change : changes) {
            writer.serialize(change, out);
        }

        ChangeEventSerializer reader = new ChangeEventSerializer();
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        ChangeEvent insert = reader.deserialize(in);
        ChangeEvent update = reader.deserialize(in);

        assertThat(insert).isEqualTo(changes[0]);
        assertThat(update).isEqualTo(changes[1]);
        assertThat(update.schema()).isSameAs(insert.schema());
    }

    @Test
    void snapshotRoundTripsAndIsCompatibleAsIs() throws IOException {
        TypeSerializerSnapshot<ChangeEvent> snapshot =
                new ChangeEventSerializer().snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, snapshot);

        TypeSerializerSnapshot<ChangeEvent> restored =
                TypeSerializerSnapshot.readVersionedSnapshot(
                        new DataInputDeserializer(out.getCopyOfBuffer()),
                        getClass().getClassLoader());

        assertThat(restored.restoreSerializer()).isEqualTo(new ChangeEventSerializer());
        TypeSerializerSchemaCompatibility<ChangeEvent> compatibility =
                new ChangeEventSerializer()
                        .snapshotConfiguration()
                        .resolveSchemaCompatibility(restored);
        assertThat(compatibility.isCompatibleAsIs()).isTrue();
    }

    /**
     * Bytes and snapshot written by format 1 (before queries), kept as resources: a savepoint of
     * that Sluice restores through the migration path and reads every change back.
     */
    @Test
    void readsChangesWrittenByFormatOne() throws IOException {
        TypeSerializerSnapshot<ChangeEvent> old =
                TypeSerializerSnapshot.readVersionedSnapshot(
                        new DataInputDeserializer(resource("change-event-format-1.snapshot")),
                        getClass().getClassLoader());

        TypeSerializerSchemaCompatibility<ChangeEvent> compatibility =
                new ChangeEventSerializer().snapshotConfiguration().resolveSchemaCompatibility(old);
        assertThat(compatibility.isCompatibleAfterMigration()).isTrue();

        TypeSerializer<ChangeEvent> reader = old.restoreSerializer();
        DataInputDeserializer in = new DataInputDeserializer(resource("change-event-format-1.bin"));
        ChangeEvent[] all = ChangeEventSerializerTest.testData();
        List<ChangeEvent> expected =
                List.of(
                        all[0],
                        all[1],
                        all[2],
                        ChangeEvent.builder(
                                        TableSchema.builder("shop", "items").build(),
                                        ChangeType.ALTER)
                                .sql("ALTER TABLE items ADD COLUMN note text")
                                .executeTime(1_700_000_001_000L)
                                .binlog("mysql-bin.000001", 2000, 0)
                                .serverId(1)
                                .build(),
                        ChangeEvent.builder(
                                        TableSchema.builder("shop", "").build(), ChangeType.QUERY)
                                .sql("CREATE DATABASE shop")
                                .build());
        List<ChangeEvent> read = new ArrayList<>();
        while (in.available() > 0) {
            read.add(reader.deserialize(in));
        }

        assertThat(read).containsExactlyElementsOf(expected);
        assertThat(read.get(4).isDdl()).isTrue();
        assertThat(read).allSatisfy(change -> assertThat(change.query()).isEmpty());
    }

    @Test
    void nonDdlQueryAndRowQuerySurviveTheRoundTrip() throws IOException {
        ChangeEvent[] changes = ChangeEventSerializerTest.testData();
        ChangeEvent row = changes[changes.length - 2];
        ChangeEvent query = changes[changes.length - 1];
        DataOutputSerializer out = new DataOutputSerializer(256);
        ChangeEventSerializer serializer = new ChangeEventSerializer();
        serializer.serialize(row, out);
        serializer.serialize(query, out);

        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        ChangeEvent readRow = new ChangeEventSerializer().deserialize(in);
        ChangeEvent readQuery = new ChangeEventSerializer().deserialize(in);

        assertThat(readRow.query()).isEqualTo(row.query()).isNotEmpty();
        assertThat(readQuery.isDdl()).isFalse();
        assertThat(readQuery.type()).isEqualTo(ChangeType.QUERY);
        assertThat(readQuery.sql()).isEqualTo(row.query());
    }

    @Test
    void unknownFlagsAreCorruption() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        ChangeEvent insert = ChangeEventSerializerTest.testData()[0];
        new ChangeEventSerializer().serialize(insert, out);
        byte[] bytes = out.getCopyOfBuffer();
        // The flags byte follows fingerprint (8), schema length (4), schema bytes and the type.
        int schemaLength =
                ((bytes[8] & 0xff) << 24)
                        | ((bytes[9] & 0xff) << 16)
                        | ((bytes[10] & 0xff) << 8)
                        | (bytes[11] & 0xff);
        int at = 12 + schemaLength + 1;
        assertThat(bytes[at]).isEqualTo((byte) 2); // HAS_AFTER
        bytes[at] |= 0x40;

        assertThatThrownBy(
                        () ->
                                new ChangeEventSerializer()
                                        .deserialize(new DataInputDeserializer(bytes)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unknown flags 66");
    }

    private byte[] resource(String name) throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/types/" + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }

    @Test
    void unknownSnapshotVersionIsRefusedClearly() {
        ChangeEventSerializerSnapshot snapshot = new ChangeEventSerializerSnapshot();
        assertThatThrownBy(
                        () ->
                                snapshot.readSnapshot(
                                        99,
                                        new DataInputDeserializer(new byte[4]),
                                        getClass().getClassLoader()))
                .hasMessageContaining("Unknown version 99");
    }

    @Test
    void corruptSchemaBytesAreDetected() throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        new ChangeEventSerializer().serialize(ChangeEventSerializerTest.testData()[0], out);
        byte[] bytes = out.getCopyOfBuffer();
        bytes[3] ^= 0x55; // inside the fingerprint

        assertThatThrownBy(
                        () ->
                                new ChangeEventSerializer()
                                        .deserialize(new DataInputDeserializer(bytes)))
                .hasMessageContaining("does not match its fingerprint");
    }
}
