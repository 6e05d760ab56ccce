package io.sluice.serializers.event;

import java.util.Objects;

/**
 * One captured change: a row change (INSERT, UPDATE, DELETE) with its before and after images, or a
 * statement with its text: a DDL, or the non-DDL QUERY that Canal writes before the rows of a DML
 * statement ({@link #queryOf}). Immutable; the {@link TableSchema} is shared between changes of the
 * same table version.
 */
public final class ChangeEvent {

    private final TableSchema schema;
    private final ChangeType type;
    private final RowImage before;
    private final RowImage after;
    private final String sql;
    private final boolean ddl;
    private final String query;
    private final long executeTime;
    private final String gtid;
    private final String binlogFile;
    private final long binlogPosition;
    private final int rowInEvent;
    private final long serverId;
    private final String transactionId;

    private ChangeEvent(Builder b) {
        this.schema = b.schema;
        this.type = b.type;
        this.before = b.before;
        this.after = b.after;
        this.sql = b.sql;
        this.ddl = b.ddl;
        this.query = b.query;
        this.executeTime = b.executeTime;
        this.gtid = b.gtid;
        this.binlogFile = b.binlogFile;
        this.binlogPosition = b.binlogPosition;
        this.rowInEvent = b.rowInEvent;
        this.serverId = b.serverId;
        this.transactionId = b.transactionId;
    }

    public static Builder builder(TableSchema schema, ChangeType type) {
        return new Builder(schema, type);
    }

    /**
     * The message Canal writes before the rows of a DML statement when the binlog carries its text
     * (MySQL's rows-query events): a QUERY that is not DDL, with {@code row}'s {@link #query()} as
     * its statement, and {@code row}'s table, time and binlog coordinates.
     *
     * @throws IllegalArgumentException if {@code row} carries no query
     */
    public static ChangeEvent queryOf(ChangeEvent row) {
        if (row.query.isEmpty()) {
            throw new IllegalArgumentException("The change " + row + " carries no query");
        }
        return builder(row.schema, ChangeType.QUERY).ddl(false).sql(row.query).eventOf(row).build();
    }

    public TableSchema schema() {
        return schema;
    }

    public String database() {
        return schema.database();
    }

    public String table() {
        return schema.table();
    }

    public ChangeType type() {
        return type;
    }

    /**
     * Whether Canal marks this change {@code isDdl}: every statement is, except the QUERY of a DML
     * statement ({@link #queryOf}).
     */
    public boolean isDdl() {
        return ddl;
    }

    /** Whether this is a row change (INSERT, UPDATE, DELETE) rather than a statement. */
    public boolean isRow() {
        return type.isRow();
    }

    /** The row before the change: UPDATE and DELETE only, else null. */
    public RowImage before() {
        return before;
    }

    /** The row after the change: INSERT and UPDATE only, else null. */
    public RowImage after() {
        return after;
    }

    /** The image Canal puts in {@code data}: the before image for DELETE, else the after. */
    public RowImage data() {
        return type == ChangeType.DELETE ? before : after;
    }

    /**
     * Whether a column changed, as Canal's {@code updated} flag says: every column of an INSERT, no
     * column of a DELETE, and for an UPDATE the columns whose value differs.
     */
    public boolean isUpdated(int column) {
        switch (type) {
            case INSERT:
                return true;
            case UPDATE:
                return !before.sameValue(after, column);
            default:
                return false;
        }
    }

    /** The statement of a DDL or QUERY change; "" for row changes. */
    public String sql() {
        return sql;
    }

    /**
     * For a row: the text of the DML statement that produced it, on the first row of the statement
     * only, when the source includes queries; "" otherwise, and for statements.
     */
    public String query() {
        return query;
    }

    /** When the change was executed on the server, in epoch milliseconds. */
    public long executeTime() {
        return executeTime;
    }

    /** GTID of the change's transaction; "" when the server has none. */
    public String gtid() {
        return gtid;
    }

    /** Binlog file of the change's event; "" for snapshot reads. */
    public String binlogFile() {
        return binlogFile;
    }

    /** Start position of the change's event in {@link #binlogFile()}; 0 for snapshot reads. */
    public long binlogPosition() {
        return binlogPosition;
    }

    /** Position of this row among the rows of its binlog event, from 0. */
    public int rowInEvent() {
        return rowInEvent;
    }

    /** Server id of the server that wrote the event. */
    public long serverId() {
        return serverId;
    }

    /** Identifies the change's transaction; "" when unknown. */
    public String transactionId() {
        return transactionId;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ChangeEvent)) {
            return false;
        }
        ChangeEvent that = (ChangeEvent) o;
        return executeTime == that.executeTime
                && binlogPosition == that.binlogPosition
                && rowInEvent == that.rowInEvent
                && serverId == that.serverId
                && ddl == that.ddl
                && type == that.type
                && schema.equals(that.schema)
                && Objects.equals(before, that.before)
                && Objects.equals(after, that.after)
                && sql.equals(that.sql)
                && query.equals(that.query)
                && gtid.equals(that.gtid)
                && binlogFile.equals(that.binlogFile)
                && transactionId.equals(that.transactionId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(schema, type, before, after, sql, executeTime, binlogPosition);
    }

    @Override
    public String toString() {
        return type
                + (type == ChangeType.QUERY && !ddl ? " (not DDL)" : "")
                + " "
                + schema.database()
                + "."
                + schema.table()
                + (before == null ? "" : " before=" + before)
                + (after == null ? "" : " after=" + after)
                + (sql.isEmpty() ? "" : " sql=" + sql)
                + (query.isEmpty() ? "" : " query=" + query)
                + " at "
                + binlogFile
                + ":"
                + binlogPosition
                + "#"
                + rowInEvent;
    }

    /** Builds a {@link ChangeEvent}; {@link #build()} checks the images fit the type. */
    public static final class Builder {
        private final TableSchema schema;
        private final ChangeType type;
        private RowImage before;
        private RowImage after;
        private String sql = "";
        private boolean ddl;
        private String query = "";
        private long executeTime;
        private String gtid = "";
        private String binlogFile = "";
        private long binlogPosition;
        private int rowInEvent;
        private long serverId;
        private String transactionId = "";

        private Builder(TableSchema schema, ChangeType type) {
            this.schema = Objects.requireNonNull(schema, "schema must not be null");
            this.type = Objects.requireNonNull(type, "type must not be null");
            this.ddl = !type.isRow();
        }

        public Builder before(RowImage before) {
            this.before = before;
            return this;
        }

        public Builder after(RowImage after) {
            this.after = after;
            return this;
        }

        /**
         * The binlog event of {@code event}: its time, GTID, binlog coordinates, server id and
         * transaction id (not its images, statement or query), for a change derived from it.
         */
        public Builder eventOf(ChangeEvent event) {
            return executeTime(event.executeTime)
                    .gtid(event.gtid)
                    .binlog(event.binlogFile, event.binlogPosition, event.rowInEvent)
                    .serverId(event.serverId)
                    .transactionId(event.transactionId);
        }

        public Builder sql(String sql) {
            this.sql = Objects.requireNonNull(sql, "sql must not be null");
            return this;
        }

        /**
         * Whether Canal marks the change {@code isDdl}; by default every statement and no row. Only
         * a QUERY may be set either way.
         */
        public Builder ddl(boolean ddl) {
            this.ddl = ddl;
            return this;
        }

        /** The DML statement that produced this row; see {@link ChangeEvent#query()}. */
        public Builder query(String query) {
            this.query = Objects.requireNonNull(query, "query must not be null");
            return this;
        }

        public Builder executeTime(long epochMillis) {
            this.executeTime = epochMillis;
            return this;
        }

        public Builder gtid(String gtid) {
            this.gtid = gtid == null ? "" : gtid;
            return this;
        }

        public Builder binlog(String file, long position, int rowInEvent) {
            this.binlogFile = file == null ? "" : file;
            this.binlogPosition = position;
            this.rowInEvent = rowInEvent;
            return this;
        }

        public Builder serverId(long serverId) {
            this.serverId = serverId;
            return this;
        }

        public Builder transactionId(String transactionId) {
            this.transactionId = transactionId == null ? "" : transactionId;
            return this;
        }

        public ChangeEvent build() {
            boolean wantsBefore = type == ChangeType.UPDATE || type == ChangeType.DELETE;
            boolean wantsAfter = type == ChangeType.UPDATE || type == ChangeType.INSERT;
            check(wantsBefore == (before != null), "before image", wantsBefore);
            check(wantsAfter == (after != null), "after image", wantsAfter);
            checkWidth(before, "before");
            checkWidth(after, "after");
            if (ddl != !type.isRow() && type != ChangeType.QUERY) {
                throw new IllegalArgumentException(
                        String.format(
                                "A %s of %s.%s is %s DDL; only a QUERY may be set either way",
                                type,
                                schema.database(),
                                schema.table(),
                                type.isRow() ? "never" : "always"));
            }
            if (!query.isEmpty() && !type.isRow()) {
                throw new IllegalArgumentException(
                        String.format(
                                "A %s of %s.%s is a statement and cannot carry a row's query",
                                type, schema.database(), schema.table()));
            }
            return new ChangeEvent(this);
        }

        private void check(boolean ok, String what, boolean wanted) {
            if (!ok) {
                throw new IllegalArgumentException(
                        String.format(
                                "A %s of %s.%s %s a %s",
                                type,
                                schema.database(),
                                schema.table(),
                                wanted ? "needs" : "must not have",
                                what));
            }
        }

        private void checkWidth(RowImage image, String which) {
            if (image != null && image.columnCount() != schema.columnCount()) {
                throw new IllegalArgumentException(
                        String.format(
                                "The %s image of a %s of %s has %d values but the table has %d"
                                        + " columns",
                                which, type, schema, image.columnCount(), schema.columnCount()));
            }
        }
    }
}
