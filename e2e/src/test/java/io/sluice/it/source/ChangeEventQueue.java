package io.sluice.it.source;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.execution.JobClient;

import io.sluice.serializers.event.ChangeEvent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.fail;

/**
 * The change events a job's {@link #sink()} receives, handed to the test that runs the job (the
 * MiniCluster runs in the test's JVM; the sink finds its queue by id, since Flink serializes it).
 */
final class ChangeEventQueue {

    private static final Map<String, BlockingQueue<ChangeEvent>> QUEUES = new ConcurrentHashMap<>();

    private final String id = UUID.randomUUID().toString();
    private final BlockingQueue<ChangeEvent> events = new LinkedBlockingQueue<>();

    ChangeEventQueue() {
        QUEUES.put(id, events);
    }

    /** A sink that adds every event to this queue. */
    Sink<ChangeEvent> sink() {
        return new QueueSink(id);
    }

    void clear() {
        events.clear();
    }

    /** The next event, or null if none arrives within {@code timeout}. */
    ChangeEvent poll(Duration timeout) throws InterruptedException {
        return events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * The next {@code count} events, failing if the job ends or they take longer than {@code wait}.
     */
    List<ChangeEvent> take(JobClient job, int count, Duration wait) throws Exception {
        return take(job, count, event -> true, wait);
    }

    /**
     * The next {@code count} events that {@code keep} accepts (the others are dropped), failing if
     * the job ends or they take longer than {@code wait}.
     */
    List<ChangeEvent> take(JobClient job, int count, Predicate<ChangeEvent> keep, Duration wait)
            throws Exception {
        List<ChangeEvent> taken = new ArrayList<>();
        long deadline = System.nanoTime() + wait.toNanos();
        while (taken.size() < count) {
            ChangeEvent event = events.poll(200, TimeUnit.MILLISECONDS);
            if (event != null) {
                if (keep.test(event)) {
                    taken.add(event);
                }
                continue;
            }
            JobStatus status = job.getJobStatus().get(30, TimeUnit.SECONDS);
            if (status.isGloballyTerminalState()) {
                job.getJobExecutionResult().get(30, TimeUnit.SECONDS); // throws the job's failure
                fail(
                        "The job ended (%s) after %d of %d events: %s",
                        status, taken.size(), count, taken);
            }
            if (System.nanoTime() > deadline) {
                fail("Only %d of %d events within %s: %s", taken.size(), count, wait, taken);
            }
        }
        return taken;
    }

    /**
     * The events up to and including the first that {@code last} accepts, failing if the job ends
     * or they take longer than {@code wait}.
     */
    List<ChangeEvent> takeThrough(JobClient job, Predicate<ChangeEvent> last, Duration wait)
            throws Exception {
        List<ChangeEvent> taken = new ArrayList<>();
        long deadline = System.nanoTime() + wait.toNanos();
        while (taken.isEmpty() || !last.test(taken.get(taken.size() - 1))) {
            ChangeEvent event = events.poll(200, TimeUnit.MILLISECONDS);
            if (event != null) {
                taken.add(event);
                continue;
            }
            JobStatus status = job.getJobStatus().get(30, TimeUnit.SECONDS);
            if (status.isGloballyTerminalState()) {
                job.getJobExecutionResult().get(30, TimeUnit.SECONDS); // throws the job's failure
                fail("The job ended (%s) after %d events: %s", status, taken.size(), taken);
            }
            if (System.nanoTime() > deadline) {
                fail("No last event within %s after %d events: %s", wait, taken.size(), taken);
            }
        }
        return taken;
    }

    private static final class QueueSink implements Sink<ChangeEvent> {
        private static final long serialVersionUID = 1L;

        private final String id;

        QueueSink(String id) {
            this.id = id;
        }

        @Override
        public SinkWriter<ChangeEvent> createWriter(WriterInitContext context) {
            return new Writer(QUEUES.get(id));
        }

        @Override
        @Deprecated
        public SinkWriter<ChangeEvent> createWriter(InitContext context) {
            return new Writer(QUEUES.get(id));
        }
    }

    private static final class Writer implements SinkWriter<ChangeEvent> {
        private final BlockingQueue<ChangeEvent> events;

        Writer(BlockingQueue<ChangeEvent> events) {
            this.events = events;
        }

        @Override
        public void write(ChangeEvent element, Context context) {
            events.add(element);
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
    }
}
