package io.sluice.functions.source.binlog;

/**
 * Where a rows event (or a DDL statement) sits in the binlog and where it came from: what every
 * change decoded from it carries besides its row.
 */
public final class RowsEventOrigin {

    private final String file;
    private final long position;
    private final long executeTime;
    private final long serverId;
    private final String gtid;

    /**
     * @param file the binlog file
     * @param position the position changes report (see docs/value-rendering.md on MariaDB)
     * @param executeTime the event's time, epoch milliseconds
     * @param serverId the id of the server that wrote the event
     * @param gtid the transaction's GTID, "" when none
     */
    public RowsEventOrigin(
            String file, long position, long executeTime, long serverId, String gtid) {
        this.file = file;
        this.position = position;
        this.executeTime = executeTime;
        this.serverId = serverId;
        this.gtid = gtid == null ? "" : gtid;
    }

    public String file() {
        return file;
    }

    public long position() {
        return position;
    }

    public long executeTime() {
        return executeTime;
    }

    public long serverId() {
        return serverId;
    }

    public String gtid() {
        return gtid;
    }
}
