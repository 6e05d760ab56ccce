package io.sluice.functions.source.internal;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.testutils.MetricListener;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.ChangeEventDeserializationSchema;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.NewTables;
import io.sluice.functions.source.SourceStalledException;
import io.sluice.functions.source.StartupMode;
import io.sluice.functions.source.StatementLoggedChanges;
import io.sluice.functions.source.binlog.BinlogSource;
import io.sluice.serializers.event.ChangeEvent;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The stall watch on a real {@link SingleThreadMultiplexSourceReaderBase} whose split reader either
 * hangs (as Flink CDC's did, waiting for a backfill's end) or sends heartbeats only (an idle
 * database); and Sluice's binlog reader on a server that never answers. Polled the way a source
 * task polls: wait for availability, then poll.
 */
class StallWatchingSourceReaderTest {

    private static final Duration TIMEOUT = Duration.ofMillis(300);

    @Test
    void aReaderThatHoldsASplitAndReadsNothingFailsNamingTheSplit() throws Exception {
        MetricListener metrics = new MetricListener();
        try (Watched watched = new Watched(SplitBehaviour.HANG, metrics)) {
            watched.reader.addSplits(List.of(new Split("customers:14")));

            assertThatThrownBy(() -> watched.pollUntil(Duration.ofMinutes(1)))
                    .isInstanceOf(SourceStalledException.class)
                    .hasMessageContaining("Source subtask 3")
                    .hasMessageContaining("[customers:14]")
                    .hasMessageContaining("'source.stall-timeout' = PT0.3S");
            assertThat(gauge(metrics)).isGreaterThanOrEqualTo(TIMEOUT.toMillis());
        }
    }

    @Test
    void heartbeatsAloneAreProgress() throws Exception {
        MetricListener metrics = new MetricListener();
        try (Watched watched = new Watched(SplitBehaviour.HEARTBEATS, metrics)) {
            watched.reader.addSplits(List.of(new Split("binlog-split")));

            // Ten timeouts of an idle database: polled whenever the reader says it may go on.
            assertThat(watched.pollFor(TIMEOUT.multipliedBy(10))).isPositive();
            assertThat(gauge(metrics)).isLessThan(TIMEOUT.toMillis());
        }
    }

    @Test
    void aReaderWithoutSplitsIsNotStalledAndASplitItGetsLaterStartsAFreshClock() throws Exception {
        MetricListener metrics = new MetricListener();
        try (Watched watched = new Watched(SplitBehaviour.HANG, metrics)) {
            assertThat(watched.pollFor(TIMEOUT.multipliedBy(3)))
                    .as("no split: the watch never wakes the task")
                    .isZero();
            assertThat(gauge(metrics)).as("no split: nothing to wait for").isZero();

            watched.reader.addSplits(List.of(new Split("orders:2")));
            assertThat(watched.reader.pollNext(watched.output))
                    .as("the new split's clock starts when it is given")
                    .isEqualTo(InputStatus.NOTHING_AVAILABLE);
            assertThatThrownBy(() -> watched.pollUntil(Duration.ofMinutes(1)))
                    .isInstanceOf(SourceStalledException.class)
                    .hasMessageContaining("[orders:2]");
        }
    }

    /**
     * Sluice's binlog reader, wrapped as {@code BinlogSource} wraps it, on a server that accepts
     * the connection and never answers: it holds the binlog split and reads nothing.
     */
    @Test
    void sluicesBinlogReaderOnASilentServerFailsNamingItsSplit() throws Exception {
        MetricListener metrics = new MetricListener();
        ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
        SourceReader<ChangeEvent, MySqlSplit> reader = null;
        try {
            reader =
                    binlogSource(silent.getLocalPort())
                            .createReader(new RecordingReaderContext(metrics, 3));
            assertThat(reader).isInstanceOf(StallWatchingSourceReader.class);
            reader.start();
            reader.addSplits(
                    List.of(
                            new MySqlBinlogSplit(
                                    "binlog-split",
                                    BinlogOffset.ofBinlogFilePosition("mysql-bin.000001", 4L),
                                    BinlogOffset.ofNonStopping(),
                                    List.of(),
                                    Map.of(),
                                    0)));
            SourceReader<ChangeEvent, MySqlSplit> watched = reader;
            assertThatThrownBy(
                            () -> pollFor(watched, new DiscardingOutput<>(), Duration.ofMinutes(1)))
                    .isInstanceOf(SourceStalledException.class)
                    .hasMessageContaining("Source subtask 3")
                    .hasMessageContaining("[binlog-split]")
                    .hasMessageContaining("'source.stall-timeout' = PT0.3S");
            assertThat(gauge(metrics)).isGreaterThanOrEqualTo(TIMEOUT.toMillis());
            assertThat(metrics.getGauge("currentFetchEventTimeLag").orElseThrow().getValue())
                    .as("no row fetched yet")
                    .isEqualTo(-1L);
        } finally {
            silent.close(); // the reading thread's connection fails, so close need not wait
            if (reader != null) {
                reader.close();
            }
        }
    }

    private static BinlogSource binlogSource(int port) {
        Configuration config = new Configuration();
        config.set(MySqlSourceOptions.HOSTNAME, "127.0.0.1");
        config.set(MySqlSourceOptions.PORT, port);
        config.set(MySqlSourceOptions.USERNAME, "cdc");
        config.set(MySqlSourceOptions.PASSWORD, "cdc");
        config.set(MySqlSourceOptions.TABLES, List.of("shop.orders"));
        config.set(MySqlSourceOptions.STARTUP_MODE, StartupMode.BINLOG_POSITION);
        config.set(MySqlSourceOptions.STARTUP_BINLOG_FILE, "mysql-bin.000001");
        config.set(MySqlSourceOptions.STARTUP_BINLOG_POSITION, 4L);
        return BinlogSource.of(
                MySqlSourceFactory.source(
                        OptionSection.unprefixed(config),
                        new ChangeEventDeserializationSchema(ZoneId.of("UTC"))),
                ZoneId.of("UTC"),
                Duration.ofMillis(100),
                List.of(),
                false,
                TIMEOUT,
                "source.stall-timeout",
                StatementLoggedChanges.FAIL,
                "source.statement-logged-changes",
                null,
                "source.signal.table",
                4096,
                NewTables.STREAM_ONLY,
                SourceJdbc.from(OptionSection.unprefixed(config)));
    }

    /** Polls {@code reader} as a task does for {@code duration}; the number of polls. */
    private static <T> int pollFor(
            SourceReader<T, ?> reader, ReaderOutput<T> output, Duration duration) throws Exception {
        long end = System.nanoTime() + duration.toNanos();
        int polls = 0;
        while (System.nanoTime() < end) {
            long left = Math.max(1L, end - System.nanoTime());
            try {
                reader.isAvailable().get(left, TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                break;
            }
            reader.pollNext(output);
            polls++;
        }
        return polls;
    }

    private static long gauge(MetricListener metrics) {
        return (Long) metrics.getGauge("sluice", "millisSinceProgress").orElseThrow().getValue();
    }

    // ---------------------------------------------------------------------------------------

    private enum SplitBehaviour {
        HANG,
        HEARTBEATS
    }

    /** A watched reader, with the output and the polling loop of a source task. */
    private static final class Watched implements AutoCloseable {
        final SourceProgress progress = new SourceProgress();
        final StallWatchingSourceReader<Integer, Split> reader;
        final ReaderOutput<Integer> output = new DiscardingOutput<>();

        Watched(SplitBehaviour behaviour, MetricListener metrics) {
            RecordingReaderContext context = new RecordingReaderContext(metrics, 3);
            Reader watched = new Reader(behaviour, progress, context);
            reader =
                    new StallWatchingSourceReader<>(
                            watched,
                            watched::getNumberOfCurrentlyAssignedSplits,
                            progress,
                            TIMEOUT,
                            "source.stall-timeout",
                            context);
            reader.start();
        }

        /** Polls as a task does until the reader fails, or fails after {@code deadline}. */
        void pollUntil(Duration deadline) throws Exception {
            int polls = pollFor(deadline);
            throw new AssertionError("No failure after " + polls + " polls in " + deadline);
        }

        /** Polls as a task does for {@code duration}; the number of polls. */
        int pollFor(Duration duration) throws Exception {
            return StallWatchingSourceReaderTest.pollFor(reader, output, duration);
        }

        @Override
        public void close() throws Exception {
            reader.close();
        }
    }

    private static final class Split implements SourceSplit {
        final String id;

        Split(String id) {
            this.id = id;
        }

        @Override
        public String splitId() {
            return id;
        }
    }

    /** A reader whose records are heartbeats (-1, marking progress only) or nothing at all. */
    private static final class Reader
            extends SingleThreadMultiplexSourceReaderBase<Integer, Integer, Split, Split> {

        Reader(SplitBehaviour behaviour, SourceProgress progress, SourceReaderContext context) {
            super(
                    () -> new Splits(behaviour),
                    (element, output, state) -> {
                        progress.mark();
                        if (element >= 0) {
                            output.collect(element);
                        }
                    },
                    new Configuration(),
                    context);
        }

        @Override
        protected void onSplitFinished(Map<String, Split> finished) {}

        @Override
        protected Split initializedState(Split split) {
            return split;
        }

        @Override
        protected Split toSplitType(String splitId, Split state) {
            return state;
        }
    }

    /** Hangs (until woken to shut down), or returns a heartbeat every 20 ms. */
    private static final class Splits implements SplitReader<Integer, Split> {
        private final SplitBehaviour behaviour;
        private final List<String> splits = new ArrayList<>();
        private volatile boolean woken;

        Splits(SplitBehaviour behaviour) {
            this.behaviour = behaviour;
        }

        @Override
        public RecordsWithSplitIds<Integer> fetch() throws java.io.IOException {
            RecordsBySplits.Builder<Integer> records = new RecordsBySplits.Builder<>();
            try {
                if (behaviour == SplitBehaviour.HANG) {
                    while (!woken) {
                        Thread.sleep(10);
                    }
                    woken = false;
                } else {
                    Thread.sleep(20);
                    records.add(splits.get(0), -1);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.IOException(e);
            }
            return records.build();
        }

        @Override
        public void handleSplitsChanges(SplitsChange<Split> changes) {
            changes.splits().forEach(split -> splits.add(split.splitId()));
        }

        @Override
        public void wakeUp() {
            woken = true;
        }

        @Override
        public void close() {}
    }

    private static final class DiscardingOutput<T> implements ReaderOutput<T> {
        @Override
        public void collect(T record) {}

        @Override
        public void collect(T record, long timestamp) {}

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void markIdle() {}

        @Override
        public void markActive() {}

        @Override
        public SourceOutput<T> createOutputForSplit(String splitId) {
            return this;
        }

        @Override
        public void releaseOutputForSplit(String splitId) {}
    }
}
