package io.sluice.functions.encode;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * A row's message is larger than the sink takes and the policy is {@code fail} (or nothing smaller
 * fits): a restart would replay the same row, so Flink fails the job instead of restarting it.
 */
@PublicEvolving
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public final class LargeMessageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public LargeMessageException(String message) {
        super(message);
    }
}
