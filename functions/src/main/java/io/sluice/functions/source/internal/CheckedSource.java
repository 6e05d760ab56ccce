package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A source that checks the database ({@link SourceServerCheck}) when its enumerator is created or
 * restored, on the JobManager as the job starts, before any reader reads. Everything else is the
 * wrapped source's, state and serializers included, so savepoints move between the two freely.
 */
@Internal
public final class CheckedSource<T, S extends SourceSplit, E>
        implements Source<T, S, E>, ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final Source<T, S, E> source;
    private final SourceServerCheck check;

    private CheckedSource(Source<T, S, E> source, SourceServerCheck check) {
        this.source = source;
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

    @Override
    public Boundedness getBoundedness() {
        return source.getBoundedness();
    }

    @Override
    public SimpleVersionedSerializer<S> getSplitSerializer() {
        return source.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<E> getEnumeratorCheckpointSerializer() {
        return source.getEnumeratorCheckpointSerializer();
    }

    @Override
    public SourceReader<T, S> createReader(SourceReaderContext context) throws Exception {
        return source.createReader(context);
    }

    @Override
    @SuppressWarnings("unchecked")
    public TypeInformation<T> getProducedType() {
        return ((ResultTypeQueryable<T>) source).getProducedType();
    }
}
