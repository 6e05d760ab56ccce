package io.sluice.functions.source.binlog;

/** The binlog reader cannot go on: the connection is lost for good, or an event cannot be read. */
public final class BinlogReaderException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BinlogReaderException(String message, Throwable cause) {
        super(message, cause);
    }
}
