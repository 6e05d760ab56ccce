package io.sluice.functions.types;

import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;

import java.io.IOException;

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
