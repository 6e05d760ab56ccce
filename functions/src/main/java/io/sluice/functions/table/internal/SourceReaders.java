package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;

import java.util.HashMap;
import java.util.Map;

/**
 * Refuses, when a statement set is translated, two change tables read with one {@code server-id} on
 * one server: each is a binlog reader of its own, and the server drops a replica connection when
 * another one connects with its id, so the two would disconnect each other for as long as the job
 * runs. Scans of ONE change table are one source (the planner reuses it), so they never collide.
 * Kept per translation ({@link Translation}).
 */
@Internal
final class SourceReaders {

    private final Map<String, String> readers = new HashMap<>();

    /**
     * Records that {@code table} reads {@code server} as replica {@code serverId}, or fails naming
     * the table that did before.
     */
    void claim(String server, String serverId, String table) {
        synchronized (readers) {
            String earlier = readers.putIfAbsent(server + " " + serverId, table);
            if (earlier != null && !earlier.equals(table)) {
                throw new ValidationException(
                        String.format(
                                "Tables '%s' and '%s' ('connector' = 'sluice-mysql') are read in"
                                        + " one job by two binlog readers, both with 'server-id'"
                                        + " = '%s' on %s; the server would let only one of them"
                                        + " stay connected. Read one change table in all"
                                        + " statements (they then share its one reader; a"
                                        + " catalog's '<database>.changes' reads every table of"
                                        + " the database, filter by `table`), or give each table"
                                        + " its own 'server-id' range, e.g. /*+ OPTIONS("
                                        + "'server-id' = '5410-5418') */, or leave"
                                        + " 'server-id' unset (each source then draws its own)",
                                earlier, table, serverId, server));
            }
        }
    }
}
