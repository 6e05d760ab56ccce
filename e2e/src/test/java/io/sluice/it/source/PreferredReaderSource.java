package io.sluice.it.source;

import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

import io.sluice.functions.source.internal.DelegatingEnumerator;
import io.sluice.functions.source.internal.DelegatingSource;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * A source whose fresh enumerator hears one reader's first split request before any other's, so
 * that a binlog-only start (no snapshot: one split) hands the binlog to that reader: Flink CDC
 * gives it to whichever reader asks first, which a test cannot otherwise choose. Requests of other
 * readers wait until the preferred one has asked; a restored enumerator is not reordered (the split
 * is back in its reader's state).
 */
public final class PreferredReaderSource<T, S extends SourceSplit, E>
        extends DelegatingSource<T, S, E> {

    private static final long serialVersionUID = 1L;

    private final int preferred;

    private PreferredReaderSource(Source<T, S, E> source, int preferred) {
        super(source);
        this.preferred = preferred;
    }

    /** {@code source} with reader {@code preferred}'s first split request heard first. */
    public static <T, S extends SourceSplit, E> PreferredReaderSource<T, S, E> of(
            Source<T, S, E> source, int preferred) {
        return new PreferredReaderSource<>(source, preferred);
    }

    @Override
    public SplitEnumerator<S, E> createEnumerator(SplitEnumeratorContext<S> context)
            throws Exception {
        return new Enumerator<>(source.createEnumerator(context), preferred);
    }

    /** Delegates everything, holding other readers' split requests until the preferred asked. */
    private static final class Enumerator<S extends SourceSplit, E>
            extends DelegatingEnumerator<S, E> {

        private final int preferred;
        private final List<Request> held = new ArrayList<>();
        private boolean preferredAsked;

        Enumerator(SplitEnumerator<S, E> enumerator, int preferred) {
            super(enumerator);
            this.preferred = preferred;
        }

        @Override
        public void handleSplitRequest(int subtask, @Nullable String host) {
            if (!preferredAsked && subtask != preferred) {
                held.add(new Request(subtask, host));
                return;
            }
            enumerator.handleSplitRequest(subtask, host);
            if (!preferredAsked) {
                preferredAsked = true;
                held.forEach(r -> enumerator.handleSplitRequest(r.subtask, r.host));
                held.clear();
            }
        }

        private record Request(int subtask, @Nullable String host) {}
    }
}
