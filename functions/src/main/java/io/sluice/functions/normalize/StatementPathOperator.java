package io.sluice.functions.normalize;

import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * Runs a step of the pipeline on a path of the source's statement count ({@code
 * StatementWatermarks}); right after a shuffle out of the source's own paths, it never tells the
 * operators after it that it is idle.
 *
 * <p>Source subtasks without statements are idle, which is safe on the source's own path: only the
 * binlog reader counts statements, in place among its records on one channel, and every binlog
 * change takes that one path. Past a shuffle it would not be: the binlog's changes take every path,
 * and an operator whose inputs were all idle takes the count of the first input to wake up, so a
 * count could overtake the records still queued on the other inputs. Kept active, every later
 * operator waits for the count on all its inputs. Both doors run their first step behind that
 * shuffle in it: the YAML door's Route or Encode, the SQL door's change rows.
 */
@Internal
public class StatementPathOperator<IN, OUT> extends ProcessOperator<IN, OUT> {

    private static final long serialVersionUID = 1L;

    private final boolean behindShuffle;

    /**
     * @param behindShuffle whether this step is the first behind a shuffle out of the source's
     *     subtasks (then it stays active) rather than on one source subtask's path (then it passes
     *     idleness on)
     */
    public StatementPathOperator(ProcessFunction<IN, OUT> function, boolean behindShuffle) {
        super(function);
        this.behindShuffle = behindShuffle;
    }

    /** Whether this step never tells the operators after it that it is idle. */
    @VisibleForTesting
    public boolean staysActive() {
        return behindShuffle;
    }

    @Override
    public void processWatermarkStatus(WatermarkStatus status) throws Exception {
        if (!behindShuffle || status.isActive()) {
            super.processWatermarkStatus(status);
        }
    }
}
