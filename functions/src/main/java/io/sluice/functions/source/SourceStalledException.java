package io.sluice.functions.source;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A source subtask held splits but read nothing from them, not even a binlog heartbeat, for longer
 * than {@code source.stall-timeout}. Recoverable: Flink's restart strategy restores the subtask
 * from the last checkpoint, which reads the same splits again with new connections.
 */
@PublicEvolving
public final class SourceStalledException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SourceStalledException(String message) {
        super(message);
    }
}
