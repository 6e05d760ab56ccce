package io.sluice.functions.source.binlog;

import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.source.StatementLoggedChanges;
import io.sluice.functions.source.internal.DmlTables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A DML statement the binlog holds as text ({@link DmlTables}): a session that set {@code
 * binlog_format} STATEMENT (or MIXED) wrote it, and its rows are in no rows event. One that writes
 * a captured table fails the reader or, if the option says skip, is passed over with a warning and
 * {@link BinlogReader.Output#skippedStatement}; one of other tables is passed over, as before.
 */
final class StatementLoggedRows {

    private static final Logger LOG = LoggerFactory.getLogger(StatementLoggedRows.class);

    /** Characters of a statement a message shows: a bulk INSERT's text can be megabytes. */
    static final int SHOWN = 1000;

    private final StatementLoggedChanges action;
    private final String optionKey;
    private final TableDecoders decoders;
    private final BinlogReader.Output out;

    StatementLoggedRows(
            StatementLoggedChanges action,
            String optionKey,
            TableDecoders decoders,
            BinlogReader.Output out) {
        this.action = action;
        this.optionKey = optionKey;
        this.decoders = decoders;
        this.out = out;
    }

    /**
     * Whether {@code sql} is a DML statement (then dealt with here); false for any other.
     *
     * @param database the event's current database
     * @throws SourceSetupException if it writes a captured table and the action is fail
     */
    boolean handled(String sql, String database, RowsEventOrigin origin) {
        List<DmlTables.Name> written = DmlTables.written(sql, database);
        if (written == null) {
            return false;
        }
        if (written.isEmpty()) {
            LOG.warn(
                    "Passed over a DML statement logged as text at {}, whose tables the reader"
                            + " cannot tell: {}",
                    where(origin),
                    shown(sql));
            return true;
        }
        List<String> captured =
                written.stream()
                        .filter(name -> decoders.captures(name.database(), name.table()))
                        .map(DmlTables.Name::toString)
                        .distinct()
                        .collect(Collectors.toList());
        if (captured.isEmpty()) {
            return true;
        }
        String what =
                String.format(
                        "The binlog holds a change of the captured %s %s as a SQL statement, not"
                                + " as rows, at %s, in database '%s': %s. The session that ran it"
                                + " logged statements (binlog_format STATEMENT or MIXED; SET"
                                + " SESSION binlog_format overrides the server's ROW), so its rows"
                                + " cannot be read.",
                        captured.size() == 1 ? "table" : "tables",
                        String.join(", ", captured),
                        where(origin),
                        database,
                        shown(sql));
        if (action == StatementLoggedChanges.FAIL) {
            throw new SourceSetupException(
                    what
                            + " Have every session that writes captured tables use"
                            + " binlog_format=ROW. To pass over such statements, their rows"
                            + " missing from the output, set '"
                            + optionKey
                            + "' = 'skip', or start the job anew (without its checkpoint) after"
                            + " this position.");
        }
        LOG.warn(
                "{} Skipped ('{}' = 'skip'): its rows are missing from the output.",
                what,
                optionKey);
        out.skippedStatement(sql, database, origin);
        return true;
    }

    private static String where(RowsEventOrigin origin) {
        return origin.file()
                + ":"
                + origin.position()
                + (origin.gtid().isEmpty() ? "" : " (GTID " + origin.gtid() + ")");
    }

    /** The statement, cut after {@link #SHOWN} characters with its length said. */
    static String shown(String sql) {
        if (sql.length() <= SHOWN) {
            return sql;
        }
        return sql.substring(0, SHOWN) + "… (" + sql.length() + " characters)";
    }
}
