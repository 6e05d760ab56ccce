package io.sluice.tools.bench;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import io.sluice.functions.source.binlog.BinlogReader;
import io.sluice.functions.source.binlog.BinlogRowsListener;
import io.sluice.functions.source.binlog.RowsEventDecoder;
import io.sluice.functions.source.binlog.TableDecoders;
import io.sluice.serializers.event.ChangeEvent;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

/**
 * The funnel's first stages, outside Flink, with the binlog client the CDC source embeds: the
 * backlog received with event bodies skipped ("binlog receive"), received with every event parsed,
 * rows included ("event parse"), and parsed into the raw values Sluice's own decoder reads and
 * decoded by it into {@code ChangeEvent}s ("client + Sluice decoder → ChangeEvent"), and Sluice's
 * own binlog reader with its positions, GTIDs and transactions ("Sluice binlog reader →
 * ChangeEvent").
 */
final class BinlogFunnel {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private BinlogFunnel() {}

    /** The result of reading the backlog once: wall window in ms, events and rows seen. */
    static final class Pass {
        final long windowMillis;
        final long events;
        final long rows;

        /** The reading thread's CPU-seconds before its first row and from then to the end. */
        double readerStartCpuSeconds = Double.NaN;

        double readerRowsCpuSeconds = Double.NaN;

        Pass(long windowMillis, long events, long rows) {
            this.windowMillis = windowMillis;
            this.events = events;
            this.rows = rows;
        }
    }

    /** How far each event of a pass goes. */
    enum Stage {
        /** Event bodies skipped. */
        RECEIVE,
        /** Every event parsed by the client's defaults. */
        PARSE,
        /** Rows events parsed raw and decoded into change events by Sluice's decoder. */
        DECODE,
        /** Sluice's {@link BinlogReader}: the decoder plus positions, GTIDs and transactions. */
        READER
    }

    /**
     * Reads the binlog from {@code start} to {@code end} to {@code stage}; {@code decoders} gives
     * the decoder of (database, table) for {@link Stage#DECODE} (null: a table not counted).
     */
    static Pass read(
            String host,
            int port,
            String user,
            String password,
            long serverId,
            BinlogPosition start,
            BinlogPosition end,
            Stage stage,
            BiFunction<String, String, RowsEventDecoder> decoders,
            Duration timeout)
            throws Exception {
        if (stage == Stage.READER) {
            return readWithReader(
                    host, port, user, password, serverId, start, end, decoders, timeout);
        }
        BinaryLogClient client = new BinaryLogClient(host, port, user, password);
        client.setServerId(serverId);
        client.setBinlogFilename(start.file);
        client.setBinlogPosition(start.position);
        client.setKeepAlive(false);
        EventDeserializer deserializer =
                stage == Stage.DECODE
                        ? RowsEventDecoder.eventDeserializer()
                        : new EventDeserializer();
        if (stage == Stage.RECEIVE) {
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
        AtomicLong changes = new AtomicLong();
        BinlogRowsListener decoding =
                stage == Stage.DECODE
                        ? new BinlogRowsListener(
                                onceEach(decoders),
                                client::getBinlogFilename,
                                e -> changes.incrementAndGet())
                        : null;
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
                    if (decoding != null) {
                        decoding.onEvent(event);
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
        if (decoding != null && changes.get() != rows.get()) {
            throw new IllegalStateException(
                    "Sluice's decoder made "
                            + changes.get()
                            + " changes of "
                            + rows.get()
                            + " rows");
        }
        return new Pass(last.get() - first.get(), events.get(), rows.get());
    }

    /** The backlog through Sluice's binlog reader: its changes counted, up to {@code end}. */
    private static Pass readWithReader(
            String host,
            int port,
            String user,
            String password,
            long serverId,
            BinlogPosition start,
            BinlogPosition end,
            BiFunction<String, String, RowsEventDecoder> decoders,
            Duration timeout)
            throws Exception {
        io.sluice.functions.source.binlog.BinlogPosition endAt =
                io.sluice.functions.source.binlog.BinlogPosition.at(end.file, end.position);
        AtomicLong changes = new AtomicLong();
        AtomicLong first = new AtomicLong();
        AtomicLong last = new AtomicLong();
        AtomicLong firstCpu = new AtomicLong();
        AtomicLong endCpu = new AtomicLong();
        AtomicReference<BinlogReader> self = new AtomicReference<>();
        BinlogReader reader =
                BinlogReader.builder(host, port, user, password)
                        .serverId(serverId)
                        .heartbeatInterval(Duration.ofMillis(200))
                        .build(
                                onceEach(decoders),
                                new BinlogReader.Output() {
                                    @Override
                                    public void change(
                                            ChangeEvent change,
                                            io.sluice.functions.source.binlog.BinlogPosition
                                                    after) {
                                        long now = System.currentTimeMillis();
                                        if (changes.getAndIncrement() == 0) {
                                            first.set(now);
                                            firstCpu.set(THREADS.getCurrentThreadCpuTime());
                                        }
                                        last.set(now);
                                    }

                                    // As the source takes them: the position in parts, built
                                    // only when a checkpoint asks.
                                    @Override
                                    public void change(
                                            ChangeEvent change,
                                            io.sluice.functions.source.binlog.BinlogPosition
                                                    transaction,
                                            long events,
                                            long rows) {
                                        change(change, transaction);
                                    }

                                    @Override
                                    public void heartbeat(
                                            io.sluice.functions.source.binlog.BinlogPosition at) {
                                        if (at.compareTo(endAt) >= 0) {
                                            endCpu.set(THREADS.getCurrentThreadCpuTime());
                                            self.get().close(); // The backlog is read.
                                        }
                                    }
                                });
        self.set(reader);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                reader.run(
                                        io.sluice.functions.source.binlog.BinlogPosition.at(
                                                start.file, start.position));
                            } catch (Throwable t) {
                                failure.set(t);
                            }
                        },
                        "sluice-binlog-reader");
        thread.start();
        thread.join(timeout.toMillis());
        if (thread.isAlive()) {
            reader.close();
            thread.join();
            throw new IllegalStateException(
                    "Sluice's binlog reader did not reach " + end + " within " + timeout);
        }
        if (failure.get() != null) {
            throw new IllegalStateException("Sluice's binlog reader failed", failure.get());
        }
        Pass pass = new Pass(last.get() - first.get(), 0, changes.get());
        pass.readerStartCpuSeconds = firstCpu.get() / 1e9;
        // Up to the heartbeat at the backlog's end, a moment after the last row.
        pass.readerRowsCpuSeconds = (endCpu.get() - firstCpu.get()) / 1e9;
        return pass;
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

    /** Asks for each table's decoder once (no DDL in a benchmark binlog). */
    private static TableDecoders onceEach(BiFunction<String, String, RowsEventDecoder> decoders) {
        Map<String, Optional<RowsEventDecoder>> known = new HashMap<>();
        return (database, table, map) ->
                known.computeIfAbsent(
                                database + "." + table,
                                name -> Optional.ofNullable(decoders.apply(database, table)))
                        .orElse(null);
    }
}
