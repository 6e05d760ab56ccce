package io.sluice.functions.order.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.util.Collector;

import io.sluice.functions.encode.OrderedMessage;
import io.sluice.functions.encode.SinkMessage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Merges the copies of each statement that reach one partition's owner, one per path through the
 * parallel operators, into a single message written after every row that preceded the statement on
 * any path and before every row that followed it.
 *
 * <p>Each path is FIFO. So once a path has delivered its copy, what it sends next belongs after the
 * statement and is held; paths that have not delivered their copy yet still carry earlier rows,
 * which pass. When the last copy arrives the statement is written once and the held messages
 * follow, in arrival order. Partitions with nothing pending cost one map lookup per message; with
 * no statement pending anywhere, none.
 */
@Internal
public final class StatementMerger {

    private final Map<TopicPartition, Alignment> alignments = new HashMap<>();

    /** Passes {@code message} on, holds it, or merges it, emitting what is due to {@code out}. */
    public void accept(OrderedMessage message, Collector<SinkMessage> out) {
        if (alignments.isEmpty() && !message.isCopy()) {
            out.collect(message.message());
            return;
        }
        TopicPartition partition =
                new TopicPartition(message.message().topic(), message.message().partition());
        Alignment alignment = alignments.get(partition);
        if (alignment == null) {
            if (!message.isCopy()) {
                out.collect(message.message());
                return;
            }
            alignment = new Alignment(message.copies());
            alignments.put(partition, alignment);
        }
        if (message.isCopy()) {
            alignment.copy(message, out);
        } else {
            alignment.row(message, out);
        }
        if (alignment.isIdle()) {
            alignments.remove(partition);
        }
    }

    /** Whether some statement still waits for copies. */
    public boolean isMerging() {
        return !alignments.isEmpty();
    }

    /** A description of what waits, for errors. */
    public String describePending() {
        return alignments.toString();
    }

    private record TopicPartition(String topic, int partition) {}

    /** The statements pending on one partition and the messages held behind them. */
    private static final class Alignment {
        private final int copies;
        private final long[] delivered;
        private final List<Pending> pending = new ArrayList<>(2);
        private final List<Held> held = new ArrayList<>();
        private long released;

        Alignment(int copies) {
            this.copies = copies;
            this.delivered = new long[copies];
        }

        void copy(OrderedMessage message, Collector<SinkMessage> out) {
            int origin = message.origin();
            if (message.copies() != copies || origin < 0 || origin >= copies) {
                throw new IllegalStateException(
                        "Statement copy from path "
                                + origin
                                + " of "
                                + message.copies()
                                + " does not match the "
                                + copies
                                + " paths of "
                                + message.message().topic()
                                + "/"
                                + message.message().partition());
            }
            int index = (int) (delivered[origin]++ - released);
            if (index == pending.size()) {
                pending.add(new Pending(message));
            }
            pending.get(index).arrived++;
            while (!pending.isEmpty() && pending.get(0).arrived == copies) {
                out.collect(pending.remove(0).first.message());
                released++;
                releaseHeld(out);
            }
        }

        void row(OrderedMessage message, Collector<SinkMessage> out) {
            int origin = message.origin();
            if (origin < 0 || origin >= copies) {
                throw new IllegalStateException(
                        "Message from unknown path "
                                + origin
                                + " while merging a statement of "
                                + copies
                                + " paths on "
                                + message.message().topic()
                                + "/"
                                + message.message().partition());
            }
            long need = delivered[origin];
            if (need > released) {
                held.add(new Held(message, need));
            } else {
                out.collect(message.message());
            }
        }

        private void releaseHeld(Collector<SinkMessage> out) {
            Iterator<Held> it = held.iterator();
            while (it.hasNext()) {
                Held h = it.next();
                if (h.need <= released) {
                    out.collect(h.message.message());
                    it.remove();
                }
            }
        }

        boolean isIdle() {
            return pending.isEmpty() && held.isEmpty();
        }

        @Override
        public String toString() {
            return pending.size() + " statement(s) waiting, " + held.size() + " message(s) held";
        }
    }

    private static final class Pending {
        private final OrderedMessage first;
        private int arrived;

        Pending(OrderedMessage first) {
            this.first = first;
        }
    }

    private record Held(OrderedMessage message, long need) {}
}
