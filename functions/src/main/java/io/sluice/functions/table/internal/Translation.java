package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The checks that the sources and sinks of one planner translation make against each other: sink
 * claims ({@link SinkClaims}), the change table each sink reads ({@link SinkSources}) and the
 * binlog readers ({@link SourceReaders}).
 *
 * <p>The planner translates each statement set (and each EXPLAIN) into a fresh environment of its
 * own (Flink's {@code DummyStreamExecutionEnvironment}) and hands it, and nothing else they share,
 * to every source and sink of that translation. So this registry, keyed weakly by that environment
 * and forgotten with it, is the one place that finds a translation's checks; each check is an
 * object of its translation.
 */
@Internal
final class Translation {

    private static final Map<StreamExecutionEnvironment, Translation> BY_ENVIRONMENT =
            Collections.synchronizedMap(new WeakHashMap<>());

    private final SinkClaims claims = new SinkClaims();
    private final SinkSources sinkSources = new SinkSources();
    private final SourceReaders readers = new SourceReaders();

    private Translation() {}

    /** The checks of the translation that builds its job in {@code env}. */
    static Translation of(StreamExecutionEnvironment env) {
        return BY_ENVIRONMENT.computeIfAbsent(env, e -> new Translation());
    }

    SinkClaims claims() {
        return claims;
    }

    SinkSources sinkSources() {
        return sinkSources;
    }

    SourceReaders readers() {
        return readers;
    }
}
