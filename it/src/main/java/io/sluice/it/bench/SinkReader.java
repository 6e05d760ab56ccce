package io.sluice.it.bench;

import java.time.Duration;
import java.util.List;

/**
 * Reads a run's topics back from the broker while the job runs: counts messages and bytes, notes
 * when the first message was stored and when the expected count was reached (the run's window).
 * {@link TopicReader} for Kafka, {@link RocketMqReader} for RocketMQ.
 */
interface SinkReader extends AutoCloseable {

    /**
     * Waits until {@code n} messages were read, the reader fails, or {@code timeout} passes;
     * returns whether they all were.
     */
    boolean await(long n, Duration timeout) throws InterruptedException;

    /** Messages read (each broker offset once). */
    long count();

    /** Key and value (body) bytes of the messages read. */
    long bytes();

    /** Broker time at which the first message was stored. */
    long firstAppendMillis();

    /** Wall time at which the expected count was reached. */
    long doneMillis();

    /** Latency samples in ms (live mode); read after {@link #close()}. */
    List<Long> latencies();

    @Override
    void close() throws InterruptedException;
}
