package io.sluice.functions.source;

import org.apache.flink.annotation.PublicEvolving;

/** Which reader follows the binlog ({@link MySqlSourceOptions#READER}). */
@PublicEvolving
public enum SourceReaderKind {
    /** Flink CDC's reader (Debezium): snapshot and binlog. */
    FLINK_CDC("flink-cdc"),
    /** Sluice's own binlog reader; binlog startup modes only (no snapshot yet). */
    SLUICE("sluice");

    private final String value;

    SourceReaderKind(String value) {
        this.value = value;
    }

    @Override
    public String toString() {
        return value;
    }
}
