package io.sluice.functions.route;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.RuntimeContext;

/** Checks shared by the operators that copy statements to every downstream subtask. */
@Internal
public final class FanOut {

    private FanOut() {}

    /**
     * Fails when an operator runs at another parallelism than the one the statement copies were
     * counted for (as an adaptive scheduler could make it): copies would go missing and statements
     * would wait forever, so it refuses to start instead.
     */
    public static void checkParallelism(RuntimeContext context, int expected, String operator) {
        int actual = context.getTaskInfo().getNumberOfParallelSubtasks();
        if (actual != expected) {
            throw new IllegalStateException(
                    "The "
                            + operator
                            + " operator runs with parallelism "
                            + actual
                            + " but the job was built for "
                            + expected
                            + "; Sluice copies each statement once per subtask and needs the"
                            + " parallelism fixed when the job is built (no reactive or adaptive"
                            + " rescaling; resubmit with the new parallelism instead)");
        }
    }
}
