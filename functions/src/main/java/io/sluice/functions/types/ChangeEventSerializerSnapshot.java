package io.sluice.functions.types;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import io.sluice.serializers.event.ChangeEvent;

import java.io.IOException;

/**
 * Snapshot of {@link ChangeEventSerializer} for savepoints: it records the record layout version,
 * so a later Sluice can tell whether it reads the state as it is or must migrate it.
 */
@Internal
public final class ChangeEventSerializerSnapshot implements TypeSerializerSnapshot<ChangeEvent> {

    private static final int SNAPSHOT_VERSION = 1;

    private int formatVersion = ChangeEventSerializer.FORMAT_VERSION;

    @Override
    public int getCurrentVersion() {
        return SNAPSHOT_VERSION;
    }

    @Override
    public void writeSnapshot(DataOutputView out) throws IOException {
        out.writeInt(formatVersion);
    }

    @Override
    public void readSnapshot(int readVersion, DataInputView in, ClassLoader classLoader)
            throws IOException {
        if (readVersion != SNAPSHOT_VERSION) {
            throw new IOException(
                    "Unknown version "
                            + readVersion
                            + " of the ChangeEvent serializer snapshot; this Sluice reads version "
                            + SNAPSHOT_VERSION);
        }
        formatVersion = in.readInt();
        if (formatVersion < 1 || formatVersion > ChangeEventSerializer.FORMAT_VERSION) {
            throw new IOException(
                    "Unknown ChangeEvent record format "
                            + formatVersion
                            + "; this Sluice reads formats 1 to "
                            + ChangeEventSerializer.FORMAT_VERSION);
        }
    }

    @Override
    public TypeSerializer<ChangeEvent> restoreSerializer() {
        return new ChangeEventSerializer();
    }

    @Override
    public TypeSerializerSchemaCompatibility<ChangeEvent> resolveSchemaCompatibility(
            TypeSerializerSnapshot<ChangeEvent> oldSnapshot) {
        if (!(oldSnapshot instanceof ChangeEventSerializerSnapshot)) {
            return TypeSerializerSchemaCompatibility.incompatible();
        }
        return ((ChangeEventSerializerSnapshot) oldSnapshot).formatVersion
                        == ChangeEventSerializer.FORMAT_VERSION
                ? TypeSerializerSchemaCompatibility.compatibleAsIs()
                : TypeSerializerSchemaCompatibility.compatibleAfterMigration();
    }
}
