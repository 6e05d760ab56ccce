package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.ValidationException;

import io.sluice.functions.table.SinkClaim;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The claims of the sinks translated into one job, so that a second sink with a claimed prefix or
 * group fails the translation (in the SQL client as in the runner) instead of the running job.
 *
 * <p>The planner translates each statement set (and each EXPLAIN) into a fresh environment of its
 * own (Flink's {@code DummyStreamExecutionEnvironment}), and hands it to every sink of that
 * translation: so claims are kept per environment, and forgotten with it.
 */
@Internal
final class SinkClaims {

    private static final Map<StreamExecutionEnvironment, List<SinkClaim>> BY_TRANSLATION =
            Collections.synchronizedMap(new WeakHashMap<>());

    private SinkClaims() {}

    /** Records {@code claim} for the job built in {@code env}, or fails naming both tables. */
    static void claim(StreamExecutionEnvironment env, SinkClaim claim) {
        List<SinkClaim> claims = BY_TRANSLATION.computeIfAbsent(env, e -> new ArrayList<>());
        synchronized (claims) {
            for (SinkClaim earlier : claims) {
                if (claim.collidesWith(earlier)) {
                    throw new ValidationException(
                            "Invalid statement set ('connector' = '"
                                    + claim.connector()
                                    + "'): "
                                    + claim.conflictWith(earlier));
                }
            }
            claims.add(claim);
        }
    }
}
