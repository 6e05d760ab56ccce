package io.sluice.functions.source.binlog;

import java.io.IOException;

/**
 * Binlog event types the binlog client 0.27.2 does not know and the reader must not pass over as
 * unknown (as it does MariaDB's checkpoint or start-encryption events): skipping one would lose
 * what the transaction is. Today that is MySQL 8.3's tagged GTID event (type 42), which replaces
 * the GTID event of a transaction whose GTID has a tag ({@code uuid:tag:n}): without it the
 * transaction has no GTID, the reader's GTID set stops advancing and a resume by GTID replays it.
 */
final class UnreadableEvents {

    /** MySQL 8.3's GTID_TAGGED_LOG_EVENT. */
    static final int GTID_TAGGED = 42;

    private UnreadableEvents() {}

    /**
     * @throws IOException naming the event type, the server version that writes it and the remedy,
     *     if the reader cannot read events of type {@code number}
     */
    static void check(int number) throws IOException {
        if (number == GTID_TAGGED) {
            throw new IOException(
                    "The binlog holds a GTID_TAGGED_LOG_EVENT (type 42): MySQL 8.3 and later write"
                            + " it for a transaction with a tagged GTID (uuid:tag:n, from SET"
                            + " gtid_next = 'AUTOMATIC:tag' or a tagged gtid_next), and Sluice's"
                            + " binlog reader cannot read it; skipping it would lose the"
                            + " transaction's GTID. Write only untagged GTIDs on the server"
                            + " (gtid_next AUTOMATIC without a tag), or read it with a Sluice that"
                            + " supports MySQL 8.3's tagged GTIDs.");
        }
    }
}
