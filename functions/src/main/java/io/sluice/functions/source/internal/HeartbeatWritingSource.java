package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

import io.sluice.functions.source.HeartbeatTable;

/**
 * A source whose split enumerator also writes the heartbeat table (on the JobManager, one writer
 * whatever the parallelism), so that no operator on the data path owns a JDBC writer. Everything
 * else is the wrapped source's.
 */
@Internal
public final class HeartbeatWritingSource<T, S extends SourceSplit, E>
        extends DelegatingSource<T, S, E> {

    private static final long serialVersionUID = 1L;

    private final HeartbeatTable table;

    private HeartbeatWritingSource(Source<T, S, E> source, HeartbeatTable table) {
        super(source);
        this.table = table;
    }

    public static <T, S extends SourceSplit, E> HeartbeatWritingSource<T, S, E> of(
            Source<T, S, E> source, HeartbeatTable table) {
        return new HeartbeatWritingSource<>(source, table);
    }

    @Override
    public SplitEnumerator<S, E> createEnumerator(SplitEnumeratorContext<S> context)
            throws Exception {
        return new HeartbeatWritingEnumerator<>(source.createEnumerator(context), table, context);
    }

    @Override
    public SplitEnumerator<S, E> restoreEnumerator(SplitEnumeratorContext<S> context, E checkpoint)
            throws Exception {
        return new HeartbeatWritingEnumerator<>(
                source.restoreEnumerator(context, checkpoint), table, context);
    }
}
