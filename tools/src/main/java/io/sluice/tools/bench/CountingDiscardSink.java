package io.sluice.tools.bench;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drops every record, counting them in a per-run {@link Tally} of this JVM (the benchmark runs its
 * MiniCluster in-process), with the wall times of the first record and of the one that reached the
 * expected count.
 */
final class CountingDiscardSink<T> implements Sink<T> {

    private static final long serialVersionUID = 1L;
    private static final Map<String, Tally> TALLIES = new ConcurrentHashMap<>();

    private final String run;

    CountingDiscardSink(String run) {
        this.run = run;
    }

    /** A fresh tally for {@code run} that is done at {@code expected} records. */
    static Tally tally(String run, long expected) {
        Tally tally = new Tally(expected);
        TALLIES.put(run, tally);
        return tally;
    }

    static void forget(String run) {
        TALLIES.remove(run);
    }

    @Override
    @SuppressWarnings("deprecation")
    public SinkWriter<T> createWriter(InitContext context) {
        return writer();
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
        return writer();
    }

    private SinkWriter<T> writer() {
        Tally tally = TALLIES.get(run);
        if (tally == null) {
            throw new IllegalStateException("No tally for benchmark run " + run);
        }
        return new SinkWriter<>() {
            @Override
            public void write(T element, Context context) {
                tally.add();
            }

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }

    /** Records counted by one run's sinks. */
    static final class Tally {
        private final long expected;
        private final AtomicLong count = new AtomicLong();
        private volatile long doneMillis;
        // A small run may count every row within one millisecond.
        private volatile long firstNanos;
        private volatile long doneNanos;
        private final ReaderThreadCpu readers = new ReaderThreadCpu();
        private volatile double readerCpuAtFirst = Double.NaN;
        private volatile double readerCpuAtDone = Double.NaN;

        Tally(long expected) {
            this.expected = expected;
        }

        void add() {
            long n = count.incrementAndGet();
            if (n == 1) {
                firstNanos = System.nanoTime();
                readerCpuAtFirst = readers.seconds();
            }
            if (n == expected) {
                doneNanos = System.nanoTime();
                doneMillis = System.currentTimeMillis();
                readerCpuAtDone = readers.seconds();
            }
        }

        /** The binlog reading threads' CPU-seconds when the first record was counted. */
        double readerCpuAtFirst() {
            return readerCpuAtFirst;
        }

        /** The binlog reading threads' CPU-seconds when the expected count was reached. */
        double readerCpuAtDone() {
            return readerCpuAtDone;
        }

        long count() {
            return count.get();
        }

        long doneMillis() {
            return doneMillis;
        }

        /** From the first record counted to the last expected, in fractional milliseconds. */
        double windowMillis() {
            return (doneNanos - firstNanos) / 1e6;
        }
    }
}
