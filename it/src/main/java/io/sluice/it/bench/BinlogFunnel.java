package io.sluice.it.bench;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The funnel's first two stages, outside Flink, with the binlog client the CDC source embeds: the
 * backlog received with event bodies skipped ("binlog receive"), and received with every event
 * parsed, rows included ("event parse").
 */
final class BinlogFunnel {

    private BinlogFunnel() {}

    /** The result of reading the backlog once: wall window in ms, events and rows seen. */
    static final class Pass {
        final long windowMillis;
        final long events;
        final long rows;

        Pass(long windowMillis, long events, long rows) {
            this.windowMillis = windowMillis;
            this.events = events;
            this.rows = rows;
        }
    }

    /** Reads the binlog from {@code start} to {@code end}, parsing rows if {@code parse}. */
    static Pass read(
            String host,
            int port,
            String user,
            String password,
            long serverId,
            BinlogPosition start,
            BinlogPosition end,
            boolean parse,
            Duration timeout)
            throws Exception {
        BinaryLogClient client = new BinaryLogClient(host, port, user, password);
        client.setServerId(serverId);
        client.setBinlogFilename(start.file);
        client.setBinlogPosition(start.position);
        client.setKeepAlive(false);
        EventDeserializer deserializer = new EventDeserializer();
        if (!parse) {
            for (EventType type : EventType.values()) {
                // The client itself needs rotations, the format and table maps.
                if (type != EventType.ROTATE
                        && type != EventType.FORMAT_DESCRIPTION
                        && type != EventType.TABLE_MAP) {
                    deserializer.setEventDataDeserializer(type, new NullEventDataDeserializer());
                }
            }
        }
        client.setEventDeserializer(deserializer);
        AtomicLong events = new AtomicLong();
        AtomicLong rows = new AtomicLong();
        AtomicLong first = new AtomicLong();
        AtomicLong last = new AtomicLong();
        CountDownLatch done = new CountDownLatch(1);
        client.registerEventListener(
                event -> {
                    EventHeaderV4 header = event.getHeader();
                    EventType type = header.getEventType();
                    if (EventType.isRowMutation(type)) {
                        if (first.get() == 0) {
                            first.set(System.currentTimeMillis());
                        }
                        rows.addAndGet(rowsOf(event.getData()));
                    }
                    events.incrementAndGet();
                    if (end.file.equals(client.getBinlogFilename())
                            && header.getNextPosition() >= end.position) {
                        last.set(System.currentTimeMillis());
                        done.countDown();
                    }
                });
        client.connect(timeout.toMillis());
        try {
            if (!done.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException(
                        "The binlog client did not reach " + end + " within " + timeout);
            }
        } finally {
            client.disconnect();
        }
        return new Pass(last.get() - first.get(), events.get(), rows.get());
    }

    private static int rowsOf(EventData data) {
        if (data instanceof WriteRowsEventData) {
            return ((WriteRowsEventData) data).getRows().size();
        } else if (data instanceof UpdateRowsEventData) {
            return ((UpdateRowsEventData) data).getRows().size();
        } else if (data instanceof DeleteRowsEventData) {
            return ((DeleteRowsEventData) data).getRows().size();
        }
        return 0;
    }
}
