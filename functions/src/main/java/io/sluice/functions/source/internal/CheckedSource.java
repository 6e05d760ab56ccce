package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * A source that checks the database ({@link SourceServerCheck}) when its enumerator is created or
 * restored, on the JobManager as the job starts, before any reader reads. Everything else is the
 * wrapped source's.
 */
@Internal
public final class CheckedSource<T, S extends SourceSplit, E> extends DelegatingSource<T, S, E> {

    private static final long serialVersionUID = 1L;

    private final SourceServerCheck check;

    private CheckedSource(Source<T, S, E> source, SourceServerCheck check) {
        super(source);
        this.check = check;
    }

    public static <T, S extends SourceSplit, E> CheckedSource<T, S, E> of(
            Source<T, S, E> source, SourceServerCheck check) {
        return new CheckedSource<>(source, check);
    }

    @Override
    public SplitEnumerator<S, E> createEnumerator(SplitEnumeratorContext<S> context)
            throws Exception {
        check.run(true);
        return source.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<S, E> restoreEnumerator(SplitEnumeratorContext<S> context, E checkpoint)
            throws Exception {
        check.run(false);
        return source.restoreEnumerator(context, checkpoint);
    }
}
