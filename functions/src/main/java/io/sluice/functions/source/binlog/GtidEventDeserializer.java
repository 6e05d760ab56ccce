package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;

import java.io.IOException;
import java.util.Arrays;

/**
 * MySQL's GTID event, as the binlog client reads it ({@code uuid:number}, lower-case hex), without
 * its cost: the client formats each of the 17 parts with {@code String.format}, which made a GTID
 * cost more than the rows of a small transaction. The server's UUID rarely changes, so its text is
 * kept from one event to the next. One per binlog connection (not thread-safe).
 */
final class GtidEventDeserializer implements EventDataDeserializer<GtidEventData> {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

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
        char[] text = new char[36];
        int at = 0;
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                text[at++] = '-';
            }
            text[at++] = HEX[(sid[i] >> 4) & 0xF];
            text[at++] = HEX[sid[i] & 0xF];
        }
        return new String(text);
    }
}
