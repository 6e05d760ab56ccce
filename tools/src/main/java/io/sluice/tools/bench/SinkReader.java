package io.sluice.tools.bench;

import io.sluice.functions.encode.SinkMessage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToIntFunction;

/**
 * Reads a run's topics back from the broker while the job runs: counts messages and bytes, notes
 * when the first message was stored and when the expected count was reached (the run's window).
 * {@link TopicReader} for Kafka, {@link RocketMqReader} for RocketMQ; each polls on its own thread
 * ({@link #start}) and hands every batch to {@link #tally}. It can keep the first messages read, as
 * pre-encoded input for the producer-limit baseline. With {@link #countingRows} it counts the rows
 * in each message (grouped rows) and awaits rows rather than messages.
 */
abstract class SinkReader implements AutoCloseable {

    private final LoadStats commits;
    private final int keep;
    private final List<SinkMessage> kept = new ArrayList<>();
    private final AtomicLong count = new AtomicLong();
    private final AtomicLong messages = new AtomicLong();
    private volatile ToIntFunction<byte[]> rowCounter;
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong firstStored = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong lastStored = new AtomicLong(Long.MIN_VALUE);
    private volatile long expected = Long.MAX_VALUE;
    private volatile long doneMillis;
    private volatile boolean running = true;
    private volatile Exception failure;
    private Thread thread;

    /**
     * @param commits pairs each insert's commit with its message, for latency samples; null for
     *     none
     * @param keep how many of the first messages read to keep
     */
    SinkReader(LoadStats commits, int keep) {
        this.commits = commits;
        this.keep = keep;
    }

    /** Starts polling on a daemon thread named {@code name}. */
    final void start(String name) {
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                poll();
            }
        } catch (Exception e) {
            if (running) {
                failure = e;
            }
        } finally {
            release();
        }
    }

    /** Reads what is there, handing it to {@link #tally} and {@link #read}. */
    abstract void poll() throws Exception;

    /** Closes the client; called on the polling thread when it ends. */
    abstract void release();

    /** Interrupts a blocking {@link #poll}, if the client can. */
    void wakeup() {}

    /**
     * Notes one message: its broker store time and, with commits tracked, that its key was read.
     */
    final void read(byte[] key, long storedMillis, long now) {
        firstStored.accumulateAndGet(storedMillis, Math::min);
        lastStored.accumulateAndGet(storedMillis, Math::max);
        if (commits != null && key != null && key.length > 0) {
            commits.inserted(TopicReader.tableAndId(key), now);
        }
    }

    /** Whether {@link #keep} would still keep a message; spares building one that it would not. */
    final boolean keeping() {
        return kept.size() < keep;
    }

    /** Keeps {@code message} if fewer than {@code keep} are kept; called on the polling thread. */
    final void keep(SinkMessage message) {
        if (keeping()) {
            kept.add(message);
        }
    }

    /** The first messages read, with the topic they were read from; read after {@link #close()}. */
    final List<SinkMessage> kept() {
        return kept;
    }

    /** Counts each message's rows with {@code counter}; set before the job starts. */
    final SinkReader countingRows(ToIntFunction<byte[]> counter) {
        rowCounter = counter;
        return this;
    }

    /** The rows of a message: one, unless {@link #countingRows}. */
    final int rowsOf(byte[] value) {
        ToIntFunction<byte[]> counter = rowCounter;
        return counter == null ? 1 : counter.applyAsInt(value);
    }

    /** Adds a batch of {@code messages} of {@code batchBytes} bytes, read at {@code now}. */
    final void tally(int messages, long batchBytes, long now) {
        tally(messages, messages, batchBytes, now);
    }

    /** Adds a batch of {@code messages} holding {@code rows} rows. */
    final void tally(int messages, int rows, long batchBytes, long now) {
        this.messages.addAndGet(messages);
        bytes.addAndGet(batchBytes);
        if (count.addAndGet(rows) >= expected && doneMillis == 0) {
            doneMillis = now;
        }
    }

    /**
     * Waits until {@code n} messages were read, the reader fails, or {@code timeout} passes;
     * returns whether they all were.
     */
    final boolean await(long n, Duration timeout) throws InterruptedException {
        expected = n;
        if (count.get() >= n && doneMillis == 0) {
            doneMillis = System.currentTimeMillis();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count.get() < n && System.nanoTime() < deadline) {
            if (failure != null) {
                throw new IllegalStateException(
                        "The benchmark's consumer (" + getClass().getSimpleName() + ") failed",
                        failure);
            }
            Thread.sleep(20);
        }
        return count.get() >= n;
    }

    /** What {@link #await} counts: messages read, or rows with {@link #countingRows}. */
    final long count() {
        return count.get();
    }

    /** Messages read (each broker offset once). */
    final long messages() {
        return messages.get();
    }

    /** Key and value (body) bytes of the messages read. */
    final long bytes() {
        return bytes.get();
    }

    /** Broker time at which the first message was stored. */
    final long firstAppendMillis() {
        return firstStored.get();
    }

    /**
     * Broker time at which the last message read was stored. For a transactional sink the gap to
     * {@link #doneMillis} is the wait for the checkpoint that commits the last transaction.
     */
    final long lastAppendMillis() {
        return lastStored.get();
    }

    /** Wall time at which the expected count was reached. */
    final long doneMillis() {
        return doneMillis;
    }

    final boolean running() {
        return running;
    }

    @Override
    public final void close() throws InterruptedException {
        if (!running) {
            return;
        }
        running = false;
        wakeup();
        if (thread != null) {
            thread.join(10_000);
        }
    }
}
