package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.UUID;

/**
 * MySQL's GTID event, as the binlog client reads it ({@code uuid:number}, lower-case hex), without
 * its cost: the client formats each of the 17 parts with {@code String.format}, which made a GTID
 * cost more than the rows of a small transaction. The server's UUID rarely changes, so its text is
 * kept from one event to the next. One per binlog connection (not thread-safe).
 */
final class GtidEventDeserializer implements EventDataDeserializer<GtidEventData> {

    private final byte[] lastSid = new byte[16];
    private String lastUuid;

    @Override
    public GtidEventData deserialize(ByteArrayInputStream input) throws IOException {
        GtidEventData data = new GtidEventData();
        data.setFlags((byte) input.readInteger(1));
        byte[] sid = input.read(16);
        long number = input.readLong(8);
        if (lastUuid == null || !Arrays.equals(sid, lastSid)) {
            System.arraycopy(sid, 0, lastSid, 0, 16);
            lastUuid = uuid(sid);
        }
        data.setGtid(lastUuid + ':' + number);
        return data;
    }

    private static String uuid(byte[] sid) {
        ByteBuffer bytes = ByteBuffer.wrap(sid);
        return new UUID(bytes.getLong(), bytes.getLong()).toString();
    }
}
