package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.metrics.MetricGroup;

import io.sluice.functions.source.HeartbeatTable;

import javax.annotation.Nullable;

import java.io.IOException;

/**
 * The wrapped enumerator, plus a {@link HeartbeatWriter} from {@link #start} to {@link #close}. Its
 * counters {@code heartbeatWrites} and {@code heartbeatWriteErrors} are in the enumerator's metric
 * group {@code sluice} (the source's coordinator metrics on the JobManager).
 */
@Internal
final class HeartbeatWritingEnumerator<S extends SourceSplit, E>
        extends DelegatingEnumerator<S, E> {

    private final HeartbeatTable table;
    private final MetricGroup group;
    @Nullable private HeartbeatWriter writer;

    HeartbeatWritingEnumerator(
            SplitEnumerator<S, E> enumerator,
            HeartbeatTable table,
            SplitEnumeratorContext<S> context) {
        super(enumerator);
        this.table = table;
        this.group = context.metricGroup().addGroup("sluice");
    }

    @Override
    public void start() {
        enumerator.start();
        // The first write happens here: a missing grant fails the job at once, naming the table.
        writer =
                HeartbeatWriter.start(
                        table,
                        group.counter("heartbeatWrites"),
                        group.counter("heartbeatWriteErrors"));
    }

    @Override
    public void close() throws IOException {
        try {
            if (writer != null) {
                writer.close();
            }
        } finally {
            enumerator.close();
        }
    }
}
