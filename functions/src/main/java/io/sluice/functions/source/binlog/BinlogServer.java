package io.sluice.functions.source.binlog;

import io.sluice.functions.source.SourceSetupException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server a binlog connection is on, as it says on that connection before the binlog is asked
 * for (so an address that moved in between cannot mislead): who it is and which GTIDs its binlog
 * holds. It decides whether a position read elsewhere may go on here ({@link #resume}).
 *
 * <p>A position's file and position belong to the binlog of one server ({@link
 * BinlogPosition#binlogServer()}): another server's file of the same name is another binlog. On
 * another server only the GTID set says where to go on, and only if that server has every GTID of
 * it (MySQL: {@code GTID_SUBSET} of {@code @@gtid_executed}; MariaDB: {@code @@gtid_binlog_state}
 * at or past the set's sequence number in each domain for the set's server id there, so that a
 * replica promoted before it applied the set, numbering on from where it stopped, does not pass).
 * Transactions the server has beyond the set, its own (a promoted replica's new server UUID or
 * domain) among them, follow from their beginning: the server sends what the set lacks.
 */
final class BinlogServer {

    private final boolean mariaDb;
    private final long serverId;
    private final String uuid;
    private final String binlogGtids;
    private final String missingFromMySql;

    /** MariaDB's {@code @@gtid_binlog_state}: the last GTID per domain and server id. */
    private final String binlogState;

    private final String address;

    private BinlogServer(
            boolean mariaDb,
            long serverId,
            String uuid,
            String binlogGtids,
            String missingFromMySql,
            String binlogState,
            String address) {
        this.binlogState = binlogState;
        this.mariaDb = mariaDb;
        this.serverId = serverId;
        this.uuid = uuid;
        this.binlogGtids = binlogGtids;
        this.missingFromMySql = missingFromMySql;
        this.address = address;
    }

    /**
     * The query that describes the server: for MySQL with the GTIDs of {@code gtids} it lacks.
     * Every value is text, none NULL.
     */
    static String query(boolean mariaDb, String gtids) {
        if (mariaDb) {
            return "SELECT @@server_id, '', IFNULL(@@gtid_binlog_pos, ''),"
                    + " IFNULL(@@gtid_binlog_state, '')";
        }
        String quoted = "'" + gtids.replace("'", "").replace("\\", "") + "'";
        return "SELECT @@server_id, @@server_uuid, IFNULL(@@gtid_executed, ''),"
                + " IFNULL(GTID_SUBTRACT("
                + quoted
                + ", @@gtid_executed), '')";
    }

    /** The server that {@link #query}'s row describes, at {@code address}. */
    static BinlogServer of(boolean mariaDb, String[] row, String address) {
        String last = row[3].replace("\n", "").trim();
        return new BinlogServer(
                mariaDb,
                Long.parseLong(row[0].trim()),
                row[1].trim(),
                row[2].replace("\n", "").trim(),
                mariaDb ? "" : last,
                mariaDb ? last : "",
                address);
    }

    /** A server that could not be asked: other than none. */
    static BinlogServer unknown() {
        return new BinlogServer(false, 0, "", "", "", "", "");
    }

    /**
     * What positions record as the server: its {@code server_uuid}, MariaDB's {@code server_id}.
     */
    String identity() {
        return mariaDb ? String.valueOf(serverId) : uuid;
    }

    long serverId() {
        return serverId;
    }

    /** MySQL's {@code server_uuid}; "" on MariaDB. */
    String uuid() {
        return uuid;
    }

    /** Whether {@code at} was read from another server's binlog (not one Sluice did not tag). */
    boolean isOtherThan(BinlogPosition at) {
        return !at.binlogServer().isEmpty()
                && !identity().isEmpty()
                && !at.binlogServer().equals(identity());
    }

    /**
     * Checks that the reader may go on at {@code at} here: on the server whose binlog it was read
     * from, or on another one by its GTID set if this server has all of it.
     *
     * @throws SourceSetupException if it may not: another server and no GTID set, or GTIDs of the
     *     set this server lacks (Sluice published them; going on would lose or repeat changes)
     */
    void resume(BinlogPosition at) {
        boolean moved = isOtherThan(at);
        if (moved && at.gtids().isEmpty()) {
            throw new SourceSetupException(
                    String.format(
                            "The binlog reader would go on at %s, a position in the binlog of"
                                    + " server %s, but the server at %s is now server %s and the"
                                    + " position has no GTID set: a binlog file of the same name"
                                    + " there is another binlog, so Sluice refuses to guess where"
                                    + " to go on. Point the source back at server %s, or turn"
                                    + " GTIDs on (MySQL gtid_mode=ON with"
                                    + " enforce_gtid_consistency=ON; MariaDB always has them)"
                                    + " and start the job anew from a position on this server"
                                    + " (source.startup.mode), knowing changes between the two"
                                    + " may be missed or repeated.",
                            at, at.binlogServer(), address, identity(), at.binlogServer()));
        }
        String missing = mariaDb ? missingFromMariaDb(at.gtids()) : missingFromMySql;
        if (!missing.isEmpty() && (at.events() > 0 || at.rows() > 0)) {
            // The set is the one before the transaction the position is inside of.
            missing += " and the transaction after them, whose first changes it published too";
        }
        if (!missing.isEmpty()) {
            throw new SourceSetupException(
                    String.format(
                            "The binlog reader would go on after the GTIDs %s (%s), but the"
                                    + " binlog of %s server %s at %s lacks %s, which Sluice"
                                    + " has already published: it is behind (a replica promoted before"
                                    + " it applied them, or without %s). Going on there would"
                                    + " publish changes that contradict those. Point the source at"
                                    + " a server that has them (the old primary, or a replica that"
                                    + " applied them), or let this one catch up; to accept the"
                                    + " loss, start the job anew without its state"
                                    + " (source.startup.mode).",
                            at.gtids(),
                            at,
                            moved ? "the new" : "the",
                            identity(),
                            address,
                            missing,
                            mariaDb ? "log_slave_updates=ON" : "log_replica_updates=ON"));
        }
    }

    /**
     * The GTIDs of MariaDB position {@code gtids} ({@code domain-server-seq} per domain) past this
     * server's binlog: in a domain it lacks or beyond its last sequence number there; "" if none.
     */
    private String missingFromMariaDb(String gtids) {
        if (gtids.isEmpty()) {
            return "";
        }
        Map<Long, Long> ours = lastPerDomain(gtids);
        Map<Long, Long> theirs = lastPerDomain(binlogGtids);
        // A later sequence number of another server in the domain is not ours: a replica promoted
        // before it applied ours goes on numbering from where it stopped, and may pass it.
        Map<String, Long> state = lastPerDomainAndServer(binlogState);
        List<String> missing = new ArrayList<>();
        for (Map.Entry<Long, Long> domain : ours.entrySet()) {
            Long last = theirs.get(domain.getKey());
            String gtid = gtidOf(gtids, domain.getKey());
            if (!binlogState.isEmpty() && gtid.split("-").length == 3) {
                Long ofServer = state.get(domain.getKey() + "-" + gtid.split("-")[1]);
                if (ofServer == null || ofServer < domain.getValue()) {
                    last = ofServer;
                }
            }
            if (last == null || last < domain.getValue()) {
                missing.add(
                        String.format(
                                "%s (domain %d, sequence numbers %d to %d; its binlog ends at %s)",
                                gtidOf(gtids, domain.getKey()),
                                domain.getKey(),
                                last == null ? 1 : last + 1,
                                domain.getValue(),
                                last == null
                                        ? "none of that domain"
                                        : gtidOf(binlogGtids, domain.getKey())));
            }
        }
        return String.join(", ", missing);
    }

    private static String gtidOf(String gtids, long domain) {
        for (String gtid : gtids.split(",")) {
            if (gtid.trim().startsWith(domain + "-")) {
                return gtid.trim();
            }
        }
        return "";
    }

    /** The last sequence number per {@code domain-server} of a GTID state. */
    private static Map<String, Long> lastPerDomainAndServer(String gtids) {
        Map<String, Long> last = new TreeMap<>();
        for (String gtid : gtids.split(",")) {
            String[] parts = gtid.trim().split("-");
            if (parts.length == 3) {
                last.merge(parts[0] + "-" + parts[1], Long.parseLong(parts[2]), Math::max);
            }
        }
        return last;
    }

    private static Map<Long, Long> lastPerDomain(String gtids) {
        Map<Long, Long> last = new TreeMap<>();
        if (gtids.isBlank()) {
            return last;
        }
        for (String gtid : gtids.split(",")) {
            String[] parts = gtid.trim().split("-");
            if (parts.length == 3) {
                last.merge(Long.parseLong(parts[0]), Long.parseLong(parts[2]), Math::max);
            }
        }
        return last;
    }

    @Override
    public String toString() {
        return (mariaDb ? "MariaDB server_id " + serverId : "MySQL server_uuid " + uuid)
                + " at "
                + address;
    }
}
