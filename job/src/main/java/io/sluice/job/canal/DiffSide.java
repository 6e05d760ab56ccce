package io.sluice.job.canal;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One side of the comparison: its topics ({@link MessageSource}), decoded into rows whatever the
 * format of each message (JSON FlatMessage, or protobuf, {@link BinaryMessage}), and how far in
 * binlog time ({@code es}) it has read. A partition more than the window ahead of the side's
 * slowest one (or ahead of one that has given no row yet) is paused, so that one side's rows wait
 * for the other's at most about that long.
 */
final class DiffSide implements AutoCloseable {

    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);
    private static final ObjectMapper JSON = new ObjectMapper();

    final String name;
    private final String topics;
    private final MessageSource source;
    private final PrintStream progress;
    private final long window;

    /** The highest {@code es} read per partition (none yet: absent). */
    private final Map<String, Long> reached = new HashMap<>();

    long messages;
    long rows;
    private boolean reported;
    private long nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();

    DiffSide(
            String name,
            String topics,
            MessageSource source,
            Duration window,
            PrintStream progress) {
        this.name = name;
        this.topics = topics;
        this.source = source;
        this.window = window.toMillis();
        this.progress = progress;
    }

    /** Whether every partition has been read to its end. */
    boolean done() {
        boolean done = source.partitions().stream().allMatch(source::finished);
        if (done && !reported) {
            reported = true;
            progress.printf(
                    "canal-diff: %s: read %d messages (%d rows and statements) from %s%n",
                    name, messages, rows, topics);
        }
        return done;
    }

    /**
     * The {@code es} this side has read up to in every partition not read to its end: {@link
     * Long#MIN_VALUE} while one has given no row yet, {@link Long#MAX_VALUE} once all are read.
     */
    long watermark() {
        long low = Long.MAX_VALUE;
        for (String partition : source.partitions()) {
            if (!source.finished(partition)) {
                low = Math.min(low, reached.getOrDefault(partition, Long.MIN_VALUE));
            }
        }
        return low;
    }

    /** The rows of the next messages read. */
    List<FlatRow> poll() {
        long low = watermark();
        // Until every partition has given a row, only those that have not are read.
        Set<String> paused = new HashSet<>();
        reached.forEach(
                (partition, es) -> {
                    if (low == Long.MIN_VALUE || es - low > window) {
                        paused.add(partition);
                    }
                });
        List<FlatRow> read = new ArrayList<>();
        for (MessageSource.Message message : source.poll(paused)) {
            messages++;
            List<FlatRow> decoded = decode(message);
            rows += decoded.size();
            String partition = MessageSource.partition(message.topic, message.partition);
            for (FlatRow row : decoded) {
                reached.merge(partition, row.es(), Math::max);
            }
            read.addAll(decoded);
        }
        if (System.nanoTime() > nextProgress) {
            progress.printf(
                    "canal-diff: %s: read %d of about %d messages%n",
                    name, messages, source.total());
            nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
        }
        return read;
    }

    /** A FlatMessage starts with '{'; protobuf cannot (it would be field 15, a group). */
    private List<FlatRow> decode(MessageSource.Message m) {
        byte[] value = m.value == null ? new byte[0] : m.value;
        try {
            if (value.length > 0 && value[0] == '{') {
                JsonNode message = JSON.readTree(value);
                if (!message.isObject() || !message.has("type")) {
                    throw new IllegalArgumentException("JSON without a \"type\"");
                }
                return FlatRow.of(m.topic, m.partition, m.offset, m.keyed, message);
            }
            return BinaryMessage.rows(m.topic, m.partition, m.offset, m.keyed, value);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException(
                    name
                            + " message at "
                            + m.topic
                            + "-"
                            + m.partition
                            + "@"
                            + m.offset
                            + " is neither a Canal FlatMessage (JSON) nor a Canal binary message"
                            + " (protobuf): "
                            + e.getMessage());
        }
    }

    @Override
    public void close() {
        source.close();
    }
}
