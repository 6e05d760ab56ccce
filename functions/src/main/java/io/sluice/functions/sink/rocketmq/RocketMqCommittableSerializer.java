package io.sluice.functions.sink.rocketmq;

import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.IOException;

/**
 * Checkpoint format of {@link RocketMqCommittable}. Version 1: run, batch, then per queue its
 * topic, queue id and messages (key, tag, body; lengths prefixed, -1 for null). A new version must
 * keep reading every older one: committables outlive the code that wrote them in savepoints.
 */
@Internal
public final class RocketMqCommittableSerializer
        implements SimpleVersionedSerializer<RocketMqCommittable> {

    public static final int VERSION_1 = 1;
    private static final int CURRENT = VERSION_1;

    @Override
    public int getVersion() {
        return CURRENT;
    }

    /**
     * The committable's own form, written when it was built: Flink's callers only copy the bytes
     * out, as its state serializers do, and ask for them many times per checkpoint.
     */
    @Override
    public byte[] serialize(RocketMqCommittable committable) {
        return committable.form();
    }

    @Override
    public RocketMqCommittable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException(
                    "Unknown version "
                            + version
                            + " of a RocketMQ sink committable; this build reads version "
                            + VERSION_1);
        }
        return RocketMqCommittable.read(serialized);
    }
}
