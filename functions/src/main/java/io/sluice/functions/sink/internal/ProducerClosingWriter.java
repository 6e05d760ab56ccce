package io.sluice.functions.sink.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.util.ExceptionUtils;

import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Collection;
import java.util.List;

/**
 * A writer that closes the writer it wraps even when the closing task is interrupted.
 *
 * <p>Kafka's writer (flink-connector-kafka 3.4.0) first aborts its open transaction and only then
 * closes its producers. A cancelled task's thread is interrupted, so the abort, which waits for the
 * broker, fails with Kafka's {@code InterruptException}, and the producers are never closed: each
 * keeps its network thread, and with it the job's class loader, for the life of the TaskManager.
 * Here the interrupt is set aside and the close tried again (the abort is retried where the client
 * left it), then the interrupt is put back for the task.
 */
@Internal
public final class ProducerClosingWriter<IN, S, C>
        implements StatefulSinkWriter<IN, S>, CommittingSinkWriter<IN, C> {

    private static final Logger LOG = LoggerFactory.getLogger(ProducerClosingWriter.class);

    /** Closes tried after an interrupt; a fresh interrupt may come in each (Flink repeats them). */
    static final int CLOSE_ATTEMPTS = 3;

    private final SinkWriter<IN> writer;
    private final StatefulSinkWriter<IN, S> stateful;
    private final CommittingSinkWriter<IN, C> committing;

    @SuppressWarnings("unchecked")
    ProducerClosingWriter(SinkWriter<IN> writer) {
        this.writer = writer;
        this.stateful = ProducerClosingSink.stateful(writer);
        this.committing = (CommittingSinkWriter<IN, C>) writer;
    }

    @Override
    public void write(IN element, Context context) throws IOException, InterruptedException {
        writer.write(element, context);
    }

    @Override
    public void writeWatermark(Watermark watermark) throws IOException, InterruptedException {
        writer.writeWatermark(watermark);
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        writer.flush(endOfInput);
    }

    @Override
    public Collection<C> prepareCommit() throws IOException, InterruptedException {
        return committing.prepareCommit();
    }

    @Override
    public List<S> snapshotState(long checkpointId) throws IOException {
        return stateful.snapshotState(checkpointId);
    }

    @Override
    public void close() throws Exception {
        boolean interrupted = false;
        try {
            for (int attempt = 1; ; attempt++) {
                try {
                    writer.close();
                    return;
                } catch (Exception e) {
                    boolean byInterrupt = Thread.interrupted() || isInterrupt(e);
                    interrupted |= byInterrupt;
                    if (!byInterrupt || attempt == CLOSE_ATTEMPTS) {
                        throw e;
                    }
                    LOG.info(
                            "Closing the sink writer was interrupted ({}); closing it again so"
                                    + " that its producers end",
                            e.toString());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static boolean isInterrupt(Throwable e) {
        return ExceptionUtils.findThrowable(e, InterruptedException.class).isPresent()
                || ExceptionUtils.findThrowable(e, InterruptException.class).isPresent();
    }
}
