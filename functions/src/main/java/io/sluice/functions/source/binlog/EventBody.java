package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.EOFException;
import java.io.IOException;

/**
 * One event's body in a byte array, read by the binlog client's parsers as their usual stream: the
 * client's own stream counts its position in a boxed {@code Integer} for each byte read, a fifth of
 * the reader's time per row. One instance per parser and thread, refilled per event.
 */
final class EventBody extends ByteArrayInputStream {

    private byte[] bytes = new byte[1024];
    private int position;
    private int limit;

    EventBody() {
        super(new byte[0]);
    }

    /** Takes what is left of {@code in}'s current block (the event's body) and reads from it. */
    EventBody refill(ByteArrayInputStream in) throws IOException {
        int length = in.available();
        if (bytes.length < length) {
            bytes = new byte[Math.max(length, bytes.length * 2)];
        }
        in.fill(bytes, 0, length);
        position = 0;
        limit = length;
        return this;
    }

    @Override
    public int read() throws IOException {
        if (position == limit) {
            throw new EOFException("Failed to read next byte from position " + position);
        }
        return bytes[position++] & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) {
        if (position == limit) {
            return -1;
        }
        int count = Math.min(length, limit - position);
        System.arraycopy(bytes, position, into, offset, count);
        position += count;
        return count;
    }

    @Override
    public void fill(byte[] into, int offset, int length) throws IOException {
        if (length > limit - position) {
            throw new EOFException("Failed to read " + length + " bytes from position " + position);
        }
        System.arraycopy(bytes, position, into, offset, length);
        position += length;
    }

    @Override
    public int available() {
        return limit - position;
    }

    @Override
    public int peek() {
        return position == limit ? -1 : bytes[position] & 0xff;
    }

    @Override
    public long skip(long n) {
        int count = (int) Math.max(0, Math.min(n, limit - position));
        position += count;
        return count;
    }

    @Override
    public int getPosition() {
        return position;
    }
}
