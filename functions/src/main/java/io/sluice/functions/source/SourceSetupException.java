package io.sluice.functions.source;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.runtime.throwable.ThrowableAnnotation;
import org.apache.flink.runtime.throwable.ThrowableType;

/**
 * The source database cannot feed the job as configured (the binlog off, not ROW or not FULL, a
 * missing privilege, a purged start position, a table the snapshot cannot split): a restart would
 * meet the same problem, so Flink fails the job instead of restarting it, with this message at the
 * top of its exceptions.
 */
@PublicEvolving
@ThrowableAnnotation(ThrowableType.NonRecoverableError)
public final class SourceSetupException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SourceSetupException(String message) {
        super(message);
    }
}
