package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.GtidEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.GtidEventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class GtidEventDeserializerTest {

    @Test
    void readsWhatTheClientsOwnDeserializerReads() throws IOException {
        GtidEventDeserializer fast = new GtidEventDeserializer();
        Random random = new Random(42);
        byte[] sid = new byte[16];
        for (int i = 0; i < 200; i++) {
            if (i % 7 == 0) {
                random.nextBytes(sid); // a new server now and then, the same one in between
            }
            sid[0] = i == 3 ? 0 : sid[0];
            sid[15] = i == 5 ? (byte) 0xFF : sid[15];
            long number = i == 9 ? Long.MAX_VALUE : random.nextInt(Integer.MAX_VALUE) + 1L;
            byte flags = (byte) (i % 2);
            byte[] body = body(flags, sid, number);

            GtidEventData expected = new GtidEventDataDeserializer().deserialize(stream(body));
            GtidEventData actual = fast.deserialize(stream(body));

            assertThat(actual.getGtid()).as("event %d", i).isEqualTo(expected.getGtid());
            assertThat(actual.getFlags()).as("event %d flags", i).isEqualTo(expected.getFlags());
        }
    }

    @Test
    void writesTheUuidInLowerCaseHexWithItsDashes() throws IOException {
        byte[] sid = new byte[16];
        for (int i = 0; i < 16; i++) {
            sid[i] = (byte) (0xA0 + i);
        }
        GtidEventData data =
                new GtidEventDeserializer().deserialize(stream(body((byte) 1, sid, 42)));

        assertThat(data.getGtid()).isEqualTo("a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf:42");
    }

    /** A MySQL 8.0 GTID event body: flags, sid, gno, then fields neither deserializer reads. */
    private static byte[] body(byte flags, byte[] sid, long number) {
        ByteBuffer body = ByteBuffer.allocate(1 + 16 + 8 + 17).order(ByteOrder.LITTLE_ENDIAN);
        body.put(flags).put(sid).putLong(number).put((byte) 2).putLong(7).putLong(8);
        return body.array();
    }

    private static ByteArrayInputStream stream(byte[] body) {
        return new ByteArrayInputStream(body);
    }
}
