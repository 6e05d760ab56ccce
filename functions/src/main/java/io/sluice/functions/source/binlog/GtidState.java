package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.GtidSet;

import java.util.Map;
import java.util.TreeMap;

/**
 * The GTIDs the binlog holds up to a point: MySQL's set ({@code uuid:1-5,...}) or MariaDB's last
 * GTID per replication domain ({@code domain-server-seq,...}, what {@code gtid_slave_pos} and
 * {@code @slave_connect_state} take). A transaction's GTID joins it when the transaction commits.
 */
final class GtidState {

    private GtidSet mySql;
    private final Map<Long, long[]> mariaDb = new TreeMap<>();
    private String pending = "";
    private boolean known;

    /** A MariaDB transaction's GTID as numbers, its text made when asked ({@link #current}). */
    private boolean pendingMariaDb;

    private long pendingDomain;
    private long pendingServer;
    private long pendingSequence;

    /** {@link #toString()} until the state changes: asked once per transaction. */
    private String text;

    /** The state {@code gtids} describes; "" is "not known" (MySQL then waits for a set). */
    GtidState(String gtids) {
        reset(gtids);
    }

    /** Whether the state is known: given, or read from the binlog. */
    boolean known() {
        return known;
    }

    /** The whole state, as at the start of a binlog file (MariaDB GTID list, MySQL previous). */
    void reset(String gtids) {
        text = null;
        mariaDb.clear();
        mySql = null;
        known = gtids != null && !gtids.isBlank();
        if (!known) {
            return;
        }
        if (isMariaDb(gtids)) {
            for (String gtid : gtids.split(",")) {
                addMariaDb(gtid.trim());
            }
        } else {
            mySql = new GtidSet(gtids.replace("\n", ""));
        }
    }

    /** A transaction with {@code gtid} ({@code uuid:n} or {@code domain-server-seq}) began. */
    void begin(String gtid) {
        pending = gtid;
        pendingMariaDb = false;
    }

    /** A MariaDB transaction with GTID {@code domain-server-sequence} began. */
    void beginMariaDb(long domain, long server, long sequence) {
        pending = null;
        pendingMariaDb = true;
        pendingDomain = domain;
        pendingServer = server;
        pendingSequence = sequence;
    }

    /** The GTID of the transaction that began, "" when none. */
    String current() {
        if (pending == null) {
            pending = pendingDomain + "-" + pendingServer + "-" + pendingSequence;
        }
        return pending;
    }

    /** The transaction that began committed: its GTID joins the state. */
    void commit() {
        boolean numbers = pendingMariaDb;
        pendingMariaDb = false;
        String gtid = pending;
        pending = "";
        if (!numbers && gtid.isEmpty() || !known) {
            return; // A partial state would replay the rest on a GTID restart: none.
        }
        text = null;
        if (numbers && mySql == null) {
            addMariaDb(pendingDomain, pendingServer, pendingSequence);
        } else if (mySql == null) {
            addMariaDb(gtid);
        } else {
            mySql.add(numbers ? pendingDomain + "-" + pendingServer + "-" + pendingSequence : gtid);
        }
    }

    private void addMariaDb(String gtid) {
        String[] parts = gtid.split("-");
        if (parts.length != 3) {
            throw new IllegalArgumentException(
                    "Not a MariaDB GTID (domain-server-sequence): '" + gtid + "'");
        }
        addMariaDb(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]));
    }

    private void addMariaDb(long domain, long server, long sequence) {
        long[] last = mariaDb.get(domain);
        if (last == null) {
            mariaDb.put(domain, new long[] {server, sequence});
        } else if (sequence >= last[1]) {
            last[0] = server;
            last[1] = sequence;
        }
    }

    /** Whether {@code gtids} is in MariaDB's syntax ({@code domain-server-seq,...}). */
    static boolean isMariaDb(String gtids) {
        return gtids.matches("\\s*\\d+-\\d+-\\d+\\s*(,\\s*\\d+-\\d+-\\d+\\s*)*");
    }

    /** The state, as a position stores it; "" when not known. */
    @Override
    public String toString() {
        if (!known) {
            return "";
        }
        if (text == null) {
            text = mySql != null ? mySql.toString() : mariaDbText();
        }
        return text;
    }

    private String mariaDbText() {
        StringBuilder joined = new StringBuilder(24 * mariaDb.size());
        for (Map.Entry<Long, long[]> domain : mariaDb.entrySet()) {
            if (joined.length() > 0) {
                joined.append(',');
            }
            joined.append(domain.getKey().longValue())
                    .append('-')
                    .append(domain.getValue()[0])
                    .append('-')
                    .append(domain.getValue()[1]);
        }
        return joined.toString();
    }
}
