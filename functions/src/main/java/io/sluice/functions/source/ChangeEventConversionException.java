package io.sluice.functions.source;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A change record Sluice cannot turn into a {@code ChangeEvent}: an unsupported column type, a
 * value of an unexpected Java class, or schema information the source should have supplied but did
 * not. The message names the table and column. Rows are never dropped silently: the job fails
 * instead.
 */
@PublicEvolving
public final class ChangeEventConversionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ChangeEventConversionException(String message) {
        super(message);
    }

    public ChangeEventConversionException(String message, Throwable cause) {
        super(message, cause);
    }
}
