package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.GtidSet;

import java.util.Map;
import java.util.StringJoiner;
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
    }

    /** The GTID of the transaction that began, "" when none. */
    String current() {
        return pending;
    }

    /** The transaction that began committed: its GTID joins the state. */
    void commit() {
        if (pending.isEmpty() || !known) {
            pending = ""; // A partial state would replay the rest on a GTID restart: none.
            return;
        }
        if (mySql == null) {
            addMariaDb(pending);
        } else {
            mySql.add(pending);
        }
        pending = "";
    }

    private void addMariaDb(String gtid) {
        String[] parts = gtid.split("-");
        if (parts.length != 3) {
            throw new IllegalArgumentException(
                    "Not a MariaDB GTID (domain-server-sequence): '" + gtid + "'");
        }
        long domain = Long.parseLong(parts[0]);
        long server = Long.parseLong(parts[1]);
        long sequence = Long.parseLong(parts[2]);
        long[] last = mariaDb.get(domain);
        if (last == null || sequence >= last[1]) {
            mariaDb.put(domain, new long[] {server, sequence});
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
        if (mySql != null) {
            return mySql.toString();
        }
        StringJoiner joined = new StringJoiner(",");
        for (Map.Entry<Long, long[]> domain : mariaDb.entrySet()) {
            joined.add(domain.getKey() + "-" + domain.getValue()[0] + "-" + domain.getValue()[1]);
        }
        return joined.toString();
    }
}
