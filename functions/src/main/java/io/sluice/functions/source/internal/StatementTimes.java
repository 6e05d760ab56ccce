package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The binlog event times of the statements (Query events) one binlog reader read, by binlog file
 * and event start, from the binlog client's thread to the source's emitting thread.
 *
 * <p>Debezium stamps a schema-change record with the time it parsed the statement, not the event's;
 * the binlog client sees the event header first ({@link BinlogStatementHook}), and the emitter puts
 * that time on the record. Statements that make no record (BEGIN aside, other databases' DDL) leave
 * entries behind: a lookup drops those older than the statement found, and at most {@link
 * #CAPACITY} are kept. Thread-safe.
 */
@Internal
public final class StatementTimes {

    /** Statements remembered at most; only those without a record yet fill it. */
    static final int CAPACITY = 1024;

    private final Map<String, Long> times =
            new LinkedHashMap<>() {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
                    return size() > CAPACITY;
                }
            };

    /** The statement at {@code file}:{@code position} was logged at {@code timestampMs}. */
    public synchronized void put(String file, long position, long timestampMs) {
        times.put(key(file, position), timestampMs);
    }

    /**
     * The time of the statement at {@code file}:{@code position}, or null if unknown. Forgets the
     * statements before it, which are read; keeps it, as one statement may make several records
     * (one per table it names).
     */
    public synchronized Long find(String file, long position) {
        String key = key(file, position);
        Long time = times.get(key);
        if (time != null) {
            Iterator<String> older = times.keySet().iterator();
            while (!older.next().equals(key)) {
                older.remove();
            }
        }
        return time;
    }

    synchronized int size() {
        return times.size();
    }

    private static String key(String file, long position) {
        return file + ':' + position;
    }
}
