package io.sluice.functions.normalize;

import org.apache.flink.annotation.Internal;

import io.sluice.serializers.event.ChangeEvent;

/**
 * A change's place among the source's statements, in both doors: the source's watermarks count the
 * statements read so far ({@code StatementWatermarks}), and a change is ranked by the count its
 * path had passed when it was read. A row that followed the N-th statement ranks {@code 2N+1}, the
 * N-th statement itself {@code 2N}; the partition owners ({@code StatementOrderOperator}) write a
 * message of rank r once every path has passed {@link #needed}{@code (r)} statements, in rank
 * order. Rank 0 (at the end of the input) never waits.
 *
 * <p>The count must be one path's own: an operator behind an exchange from several active paths
 * sees the lowest of their counts, which would rank a row that followed a statement as if it came
 * before it. The YAML door ranks on the source subtask ({@link ChangeNormalizer}), the SQL door in
 * the encoders chained to the query.
 */
@Internal
public final class StatementRank {

    private StatementRank() {}

    /** The rank of {@code change} read on a path that had passed {@code watermark}. */
    public static long of(ChangeEvent change, long watermark) {
        return change.isDdl() ? statementRank(watermark) : rowRank(watermark);
    }

    /** The rank of a row read on a path that had passed {@code watermark}. */
    public static long rowRank(long watermark) {
        return watermark == Long.MAX_VALUE ? 0 : 2 * statements(watermark) + 1;
    }

    /** The rank of a statement read on a path that had passed {@code watermark}. */
    public static long statementRank(long watermark) {
        return watermark == Long.MAX_VALUE ? 0 : 2 * (statements(watermark) + 1);
    }

    /** The statements every path must have passed before a message of {@code rank} is written. */
    public static long needed(long rank) {
        return rank / 2;
    }

    private static long statements(long watermark) {
        return Math.max(0, watermark);
    }
}
