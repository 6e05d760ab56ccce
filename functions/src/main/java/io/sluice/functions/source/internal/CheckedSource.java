package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * A source that checks the database ({@link SourceServerCheck}) when its enumerator is created or
 * restored, on the JobManager as the job starts, before any reader reads. At the job's first start
 * a database that cannot be reached fails the job too (its host or port is most likely wrong);
 * after that, or from a checkpoint, it stays recoverable: a database that went away may come back.
 * Everything else is the wrapped source's.
 */
@Internal
public final class CheckedSource<T, S extends SourceSplit, E> extends DelegatingSource<T, S, E> {

    private static final long serialVersionUID = 1L;

    private final SourceServerCheck check;

    /**
     * Whether the check once passed in this JobManager: the settings then reached the database, so
     * a later failure to connect is the database away, not a mistake. Flink keeps this instance
     * across a global failover (its source coordinator is recreated around the same source) and
     * calls {@link #createEnumerator} again when there is no checkpoint yet, so the flag tells such
     * a reset from the first start. Transient: it lives in this JobManager only; a new one (a
     * JobManager failover before the first checkpoint) checks as at a first start again.
     */
    private transient volatile boolean reached;

    private CheckedSource(Source<T, S, E> source, SourceServerCheck check) {
        super(source);
        this.check = check;
    }

    public static <T, S extends SourceSplit, E> CheckedSource<T, S, E> of(
            Source<T, S, E> source, SourceServerCheck check) {
        return new CheckedSource<>(source, check);
    }

    @Override
    public SourceReader<T, S> createReader(SourceReaderContext context) throws Exception {
        MySqlDrivers.prepare();
        MySqlDrivers.deregisterOnRelease(context.getUserCodeClassLoader());
        return source.createReader(context);
    }

    @Override
    public SplitEnumerator<S, E> createEnumerator(SplitEnumeratorContext<S> context)
            throws Exception {
        MySqlDrivers.prepare();
        try {
            if (reached) {
                check.run(true);
            } else {
                check.runAtFirstStart();
            }
            reached = true;
            return new DriverReleasingEnumerator<>(source.createEnumerator(context));
        } catch (Exception | Error e) {
            MySqlDrivers.deregister();
            throw e;
        }
    }

    @Override
    public SplitEnumerator<S, E> restoreEnumerator(SplitEnumeratorContext<S> context, E checkpoint)
            throws Exception {
        MySqlDrivers.prepare();
        try {
            // A checkpoint means the job ran: an unreachable database is one that went away.
            check.run(false);
            reached = true;
            return new DriverReleasingEnumerator<>(source.restoreEnumerator(context, checkpoint));
        } catch (Exception | Error e) {
            MySqlDrivers.deregister();
            throw e;
        }
    }
}
