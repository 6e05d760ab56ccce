package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The reader's event deserializer refuses the events it must not pass over as unknown: MySQL 8.3's
 * tagged GTID event (type 42) would otherwise leave a transaction without its GTID, so that the
 * reader's GTID set stops advancing. MySQL 8.0.31 cannot write one, so the event is made here.
 */
class UnreadableEventsTest {

    @Test
    void refusesATaggedGtidEventNamingItsTypeAndTheServerVersion() {
        byte[] event = event(42, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});

        assertThatThrownBy(
                        () ->
                                RowsEventDecoder.eventDeserializer()
                                        .nextEvent(new ByteArrayInputStream(event)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("GTID_TAGGED_LOG_EVENT (type 42)")
                .hasMessageContaining("MySQL 8.3")
                .hasMessageContaining("gtid_next")
                .hasMessageContaining("untagged");
    }

    @Test
    void passesOverOtherUnknownEventsAsBefore() throws IOException {
        // MariaDB's binlog checkpoint (161), which the client does not know either.
        Event event =
                RowsEventDecoder.eventDeserializer()
                        .nextEvent(new ByteArrayInputStream(event(161, new byte[] {0, 0, 0, 0})));

        assertThat(event.getHeader().getEventType()).isEqualTo(EventType.UNKNOWN);
    }

    /** A v4 event of type {@code type}, without checksum, at position 4. */
    private static byte[] event(int type, byte[] body) {
        int length = 19 + body.length;
        byte[] bytes = new byte[length];
        putInt(bytes, 0, 1_700_000_000); // timestamp
        bytes[4] = (byte) type;
        putInt(bytes, 5, 1); // server id
        putInt(bytes, 9, length);
        putInt(bytes, 13, 4 + length); // next position
        System.arraycopy(body, 0, bytes, 19, body.length);
        return bytes;
    }

    private static void putInt(byte[] bytes, int at, int value) {
        for (int i = 0; i < 4; i++) {
            bytes[at + i] = (byte) (value >>> (8 * i));
        }
    }
}
