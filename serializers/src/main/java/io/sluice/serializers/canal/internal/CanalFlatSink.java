package io.sluice.serializers.canal.internal;

import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * The stream a long-lived JSON generator writes into, reused message after message: {@link #drain}
 * hands out one message as an exact-size array and makes room for the next.
 *
 * <p>Most messages never outgrow the generator's own buffer, so they arrive in the single write of
 * the final flush; that write is copied straight into the result. Larger messages spill into a
 * growable buffer kept between messages. Not thread-safe; writes never throw.
 */
public final class CanalFlatSink extends OutputStream {

    private final int initialCapacity;
    private final int retainedCapacity;
    private byte[] buffer;
    private int size;

    /** True while {@link #drain} flushes the generator. */
    private boolean draining;

    /** The whole message, when it came in one write during {@link #drain}. */
    private byte[] drained;

    /**
     * @param initialCapacity bytes allocated up front for spilled messages, and after a shrink
     * @param retainedCapacity the largest buffer kept after a message: one huge message should not
     *     pin its memory for the life of the encoder
     */
    public CanalFlatSink(int initialCapacity, int retainedCapacity) {
        if (initialCapacity < 1 || retainedCapacity < initialCapacity) {
            throw new IllegalArgumentException(
                    "Need 0 < initialCapacity <= retainedCapacity, got "
                            + initialCapacity
                            + " and "
                            + retainedCapacity);
        }
        this.initialCapacity = initialCapacity;
        this.retainedCapacity = retainedCapacity;
        this.buffer = new byte[initialCapacity];
    }

    @Override
    public void write(int b) {
        spillDrained();
        ensure(1);
        buffer[size++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        if (draining && size == 0 && drained == null) {
            drained = Arrays.copyOfRange(bytes, offset, offset + length);
            return;
        }
        spillDrained();
        append(bytes, offset, length);
    }

    /**
     * Flushes {@code generator} into this sink and returns exactly the bytes written since the last
     * drain or {@link #reset()}, as a new array; then resets.
     */
    public byte[] drain(Flushable generator) throws IOException {
        draining = true;
        try {
            generator.flush();
        } finally {
            draining = false;
        }
        byte[] message = drained != null ? drained : Arrays.copyOf(buffer, size);
        reset();
        return message;
    }

    /** Forgets what was written, keeping the buffer unless it grew past the retained capacity. */
    public void reset() {
        size = 0;
        drained = null;
        if (buffer.length > retainedCapacity) {
            buffer = new byte[initialCapacity];
        }
    }

    /** Current buffer size, for tests. */
    int capacity() {
        return buffer.length;
    }

    /** A second write during one drain: fall back to buffering everything. */
    private void spillDrained() {
        if (drained != null) {
            byte[] first = drained;
            drained = null;
            append(first, 0, first.length);
        }
    }

    private void append(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buffer, size, length);
        size += length;
    }

    private void ensure(int more) {
        int needed = size + more;
        if (needed < 0) {
            throw new IllegalStateException("A flat message cannot exceed 2 GiB");
        }
        if (needed > buffer.length) {
            // Double, but never past the largest array length the JVM allows.
            long doubled = Math.min(Integer.MAX_VALUE - 8L, 2L * buffer.length);
            buffer = Arrays.copyOf(buffer, (int) Math.max(doubled, needed));
        }
    }
}
