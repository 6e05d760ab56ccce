package io.sluice.job.canal;

import org.apache.flink.annotation.Internal;

/**
 * The rows of the table "Where Sluice differs from Canal, on purpose" in {@code
 * docs/canal-compatibility.md}, one to one (a test holds them equal): a difference canal-diff finds
 * is documented when it is one of these, and so is one that CanalSideBySideITCase finds between a
 * real Canal server's output and Sluice's.
 */
@Internal
public enum DeliberateDifference {
    LATIN1_TEXT("latin1 text"),
    DECIMAL_SCALE("DECIMAL scale"),
    JSON_TEXT("bytes, U+0000 and keys in MySQL JSON"),
    SQL_TYPE("`sqlType`"),
    SCHEMA_SOURCE("`mysqlType` of a table created or altered while capturing"),
    BINARY_PADDING("BINARY(n) trailing zero bytes"),
    MARIADB_UUID_INET("MariaDB UUID, INET4 and INET6"),
    TIMESTAMP_ZONE("TIMESTAMP zone"),
    STATEMENT_TEXTS("statement texts (MySQL rows-query, MariaDB annotate-rows events)"),
    QUERY_DATABASE("`database` of such a `QUERY`"),
    FLAT_OLD("flat `old` in multi-row messages"),
    MESSAGE_KEY("message key"),
    UNMATCHED_PARTITION("tables no `partitionHash` rule matches"),
    PRIMARY_KEY_CHANGE("primary-key change"),
    ALTER_DATABASE("`ALTER DATABASE`"),
    DDL_PLACEMENT("DDL placement"),
    MESSAGE_ID("message `id`"),
    DROP_TABLE_TEXT("`DROP TABLE` text"),
    QUOTED_DATABASE("`database` of `CREATE`/`DROP DATABASE` with a quoted name"),
    EVENT_LENGTH_TABLE_ID("binary `eventLength`, `tableId`"),
    ROWS_PER_MESSAGE("rows per message"),
    ROWS_COUNT("binary `rowsCount`"),
    ROW_OFFSET("binary `logfileOffset` of rows"),
    MARIADB_GTID("`gtid` on MariaDB"),
    MYSQL_GTID("`gtid` on MySQL"),
    XA_ENTRIES("XA commit and rollback");

    private final String docRow;

    DeliberateDifference(String docRow) {
        this.docRow = docRow;
    }

    /** The row's first cell in the documentation table. */
    public String docRow() {
        return docRow;
    }
}
