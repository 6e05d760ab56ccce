package io.sluice.functions.encode.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.util.TimeUtils;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.encode.EncodeOptions;
import io.sluice.functions.encode.GroupRows;

import java.io.Serializable;
import java.time.Duration;

/** A job's row-grouping options, checked when the job is built; shipped to every encoder. */
@Internal
public final class GroupSettings implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final Duration MAX_IDLE_FLUSH = Duration.ofSeconds(10);

    private final long maxBytes;
    private final long idleFlushMillis;

    public GroupSettings(long maxBytes, long idleFlushMillis) {
        this.maxBytes = maxBytes;
        this.idleFlushMillis = idleFlushMillis;
    }

    /**
     * The grouping {@code config} asks for, or null for one row per message; fails naming the
     * option when a value is out of range.
     */
    public static GroupSettings from(OptionSection config) {
        if (config.get(EncodeOptions.GROUP_ROWS) == GroupRows.NONE) {
            return null;
        }
        long maxBytes = config.get(EncodeOptions.GROUP_ROWS_MAX_BYTES).getBytes();
        if (maxBytes < 1024) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' must be at least 1 kb, but is %s",
                            config.key(EncodeOptions.GROUP_ROWS_MAX_BYTES),
                            config.get(EncodeOptions.GROUP_ROWS_MAX_BYTES)));
        }
        Duration idle = config.get(EncodeOptions.GROUP_ROWS_IDLE_FLUSH);
        if (idle.toMillis() < 1 || idle.compareTo(MAX_IDLE_FLUSH) > 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' must be between 1 ms and 10 s, but is %s",
                            config.key(EncodeOptions.GROUP_ROWS_IDLE_FLUSH),
                            TimeUtils.formatWithHighestUnit(idle)));
        }
        return new GroupSettings(maxBytes, idle.toMillis());
    }

    /** About the largest row data one message takes. */
    public long maxBytes() {
        return maxBytes;
    }

    /** How long a pending group waits when no input arrives. */
    public long idleFlushMillis() {
        return idleFlushMillis;
    }
}
