package io.sluice.functions.sink.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;

import java.io.IOException;
import java.util.Collection;
import java.util.List;

/**
 * A two-phase-committing sink whose writers finish closing when the task that closes them is
 * interrupted ({@link ProducerClosingWriter}); otherwise the sink it wraps, with its state and
 * committables as they are, so savepoints and the operator's state do not change.
 *
 * @param <S> the wrapped writer's state
 * @param <C> the wrapped sink's committable
 */
@Internal
public final class ProducerClosingSink<IN, S, C>
        implements Sink<IN>,
                SupportsWriterState<IN, S>,
                SupportsCommitter<C>,
                LineageVertexProvider {

    private static final long serialVersionUID = 1L;

    private final Sink<IN> sink;
    private final SupportsWriterState<IN, S> stateful;
    private final SupportsCommitter<C> committing;

    private <K extends Sink<IN> & SupportsWriterState<IN, S> & SupportsCommitter<C>>
            ProducerClosingSink(K sink) {
        this.sink = sink;
        this.stateful = sink;
        this.committing = sink;
    }

    /** {@code sink} with writers that close their producers when interrupted. */
    public static <IN, S, C, K extends Sink<IN> & SupportsWriterState<IN, S> & SupportsCommitter<C>>
            ProducerClosingSink<IN, S, C> of(K sink) {
        return new ProducerClosingSink<>(sink);
    }

    @Override
    @SuppressWarnings("deprecation") // Sink's own signature; Flink 1.20 calls the other one.
    public SinkWriter<IN> createWriter(InitContext context) throws IOException {
        throw new UnsupportedOperationException(
                "ProducerClosingSink needs a WriterInitContext (Flink 1.20 or later)");
    }

    @Override
    public ProducerClosingWriter<IN, S, C> createWriter(WriterInitContext context)
            throws IOException {
        return new ProducerClosingWriter<>(sink.createWriter(context));
    }

    @Override
    public ProducerClosingWriter<IN, S, C> restoreWriter(
            WriterInitContext context, Collection<S> recoveredState) throws IOException {
        return new ProducerClosingWriter<>(stateful.restoreWriter(context, recoveredState));
    }

    @Override
    public SimpleVersionedSerializer<S> getWriterStateSerializer() {
        return stateful.getWriterStateSerializer();
    }

    @Override
    public Committer<C> createCommitter(CommitterInitContext context) throws IOException {
        return committing.createCommitter(context);
    }

    @Override
    public SimpleVersionedSerializer<C> getCommittableSerializer() {
        return committing.getCommittableSerializer();
    }

    @Override
    public LineageVertex getLineageVertex() {
        return sink instanceof LineageVertexProvider
                ? ((LineageVertexProvider) sink).getLineageVertex()
                : List::of;
    }

    /** Checks that the wrapped writer is one this sink can stand for. */
    static <IN, S, C> StatefulSinkWriter<IN, S> stateful(SinkWriter<IN> writer) {
        if (!(writer instanceof StatefulSinkWriter) || !(writer instanceof CommittingSinkWriter)) {
            throw new IllegalArgumentException(
                    "ProducerClosingSink wraps a sink whose writers keep state and commit, got "
                            + writer.getClass().getName());
        }
        @SuppressWarnings("unchecked")
        StatefulSinkWriter<IN, S> stateful = (StatefulSinkWriter<IN, S>) writer;
        return stateful;
    }
}
