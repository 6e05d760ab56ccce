package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;

import io.sluice.functions.table.SinkClaim;

import java.util.ArrayList;
import java.util.List;

/**
 * The claims of the sinks translated into one job ({@link Translation}), so that a second sink with
 * a claimed prefix or group fails the translation (in the SQL client as in the runner) instead of
 * the running job.
 */
@Internal
final class SinkClaims {

    private final List<SinkClaim> claims = new ArrayList<>();

    /** Records {@code claim} for this translation's job, or fails naming both tables. */
    void claim(SinkClaim claim) {
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
