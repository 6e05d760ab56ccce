package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.source.internal.SqlTokens.Token;
import io.sluice.serializers.event.ChangeType;

import java.util.ArrayList;
import java.util.List;

/**
 * Gives a DDL statement the Canal event type and target table that Canal's Druid-based parser gives
 * it (see {@code docs/dev/canal-format-notes.md} 4.1): CREATE, ALTER, ERASE, TRUNCATE, RENAME,
 * CINDEX, DINDEX; QUERY for database statements (CREATE, ALTER, DROP DATABASE, with the database)
 * and for anything it does not recognise.
 *
 * <p>This is a keyword scanner, not a SQL parser: it reads the statement's leading keywords, the
 * table name and, for ALTER TABLE, the first alteration (Canal types an ALTER by its first item).
 */
@Internal
public final class DdlClassifier {

    /** Words that start an ALTER DATABASE option, so a statement without a name has none. */
    private static final String[] DATABASE_OPTIONS = {
        "DEFAULT", "CHARACTER", "CHARSET", "COLLATE", "COMMENT", "ENCRYPTION", "READ"
    };

    private DdlClassifier() {}

    /**
     * Whether {@code sql} is a CREATE TABLE without IF NOT EXISTS, or MariaDB's CREATE OR REPLACE
     * TABLE. After either the table has the statement's definition: the binlog holds the first only
     * if the table did not exist then, and the second drops any table of that name first. So a
     * reader that knows the table (from the database, when it replays from an earlier position, or
     * the replaced one) must forget that definition for the statement's.
     */
    public static boolean createsNewTable(String sql) {
        // Read on every statement: only its head, CREATE [OR REPLACE] TABLE [IF].
        List<Token> tokens = SqlTokens.of(sql, 5);
        int at = 0;
        if (tokens.size() < 3 || !tokens.get(at++).is("CREATE")) {
            return false;
        }
        if (tokens.get(at).is("OR") && tokens.get(at + 1).is("REPLACE")) {
            at += 2;
        }
        return at + 1 < tokens.size() && tokens.get(at).is("TABLE") && !tokens.get(at + 1).is("IF");
    }

    /**
     * The tables a {@code RENAME TABLE} (every pair, in order) or an {@code ALTER TABLE ... RENAME
     * [TO|AS]} (as its first alteration) moves; empty for any other statement.
     *
     * @param currentDatabase the database unqualified names belong to; may be null
     */
    public static List<Rename> renames(String sql, String currentDatabase) {
        try {
            return new Scanner(SqlTokens.of(sql), currentDatabase == null ? "" : currentDatabase)
                    .renames();
        } catch (IndexOutOfBoundsException e) {
            return List.of(); // the statement ended early: not a rename we read
        }
    }

    /** One table moved by a rename: from (database, table) to (database, table). */
    public static final class Rename {
        private final Statement from;
        private final Statement to;

        Rename(Statement from, Statement to) {
            this.from = from;
            this.to = to;
        }

        /** The old name (its {@link Statement#database()} and {@link Statement#table()}). */
        public Statement from() {
            return from;
        }

        /** The new name. */
        public Statement to() {
            return to;
        }

        @Override
        public String toString() {
            return from.database + "." + from.table + " -> " + to.database + "." + to.table;
        }
    }

    /** What a statement is and which table it names. */
    public static final class Statement {
        private final ChangeType type;
        private final String database;
        private final String table;

        Statement(ChangeType type, String database, String table) {
            this.type = type;
            this.database = database;
            this.table = table;
        }

        public ChangeType type() {
            return type;
        }

        /** The database the statement names, or the current database; "" if neither. */
        public String database() {
            return database;
        }

        /** The (new, for RENAME) table name; "" for database statements and QUERY. */
        public String table() {
            return table;
        }

        /** Whether this is CREATE, ALTER or DROP DATABASE (SCHEMA), of {@link #database()}. */
        public boolean isDatabaseStatement() {
            return type == ChangeType.QUERY && !database.isEmpty();
        }

        @Override
        public String toString() {
            return type + " " + database + "." + table;
        }
    }

    /**
     * Classifies {@code sql}.
     *
     * @param currentDatabase the database unqualified names belong to; may be null
     */
    public static Statement classify(String sql, String currentDatabase) {
        String current = currentDatabase == null ? "" : currentDatabase;
        List<Token> tokens = SqlTokens.of(sql);
        try {
            Statement statement = new Scanner(tokens, current).statement();
            if (statement != null) {
                return statement;
            }
        } catch (IndexOutOfBoundsException e) {
            // The statement ended early: not something we recognise.
        }
        return new Statement(ChangeType.QUERY, "", "");
    }

    /** Keyword-level reading of one statement. */
    private static final class Scanner extends SqlTokens.Cursor {
        private final String current;

        Scanner(List<Token> tokens, String current) {
            super(tokens);
            this.current = current;
        }

        Statement statement() {
            if (accept("CREATE")) {
                accept("OR");
                accept("REPLACE");
                acceptAny("TEMPORARY", "ONLINE", "OFFLINE");
                if (accept("TABLE")) {
                    ifExists("NOT");
                    return named(ChangeType.CREATE);
                }
                if (acceptAny("DATABASE", "SCHEMA")) {
                    ifExists("NOT");
                    return database();
                }
                acceptAny("UNIQUE", "FULLTEXT", "SPATIAL");
                if (accept("INDEX")) {
                    return afterOn(ChangeType.CINDEX);
                }
                return null;
            }
            if (accept("DROP")) {
                accept("TEMPORARY");
                if (accept("TABLE")) {
                    ifExists(null);
                    return named(ChangeType.ERASE);
                }
                if (acceptAny("DATABASE", "SCHEMA")) {
                    ifExists(null);
                    return database();
                }
                acceptAny("ONLINE", "OFFLINE");
                if (accept("INDEX")) {
                    return afterOn(ChangeType.DINDEX);
                }
                return null;
            }
            if (accept("TRUNCATE")) {
                accept("TABLE");
                return named(ChangeType.TRUNCATE);
            }
            if (accept("RENAME")) {
                if (!acceptAny("TABLE", "TABLES")) {
                    return null;
                }
                ifExists(null);
                name(); // the old name
                waitOption();
                if (!accept("TO")) {
                    return null;
                }
                return named(ChangeType.RENAME);
            }
            if (accept("ALTER")) {
                if (acceptAny("DATABASE", "SCHEMA")) {
                    // The name is optional: the options then apply to the current database.
                    if (peek().isAny(DATABASE_OPTIONS) || peek() == Token.END || peek().is(";")) {
                        return new Statement(ChangeType.QUERY, current, "");
                    }
                    return database();
                }
                acceptAny("ONLINE", "OFFLINE");
                accept("IGNORE");
                if (!accept("TABLE")) {
                    return null;
                }
                ifExists(null);
                String[] table = name();
                waitOption();
                return alteration(table);
            }
            return null;
        }

        /** RENAME TABLE's pairs, or ALTER TABLE's RENAME [TO|AS] as first alteration. */
        List<Rename> renames() {
            List<Rename> renames = new ArrayList<>();
            if (accept("RENAME")) {
                if (!acceptAny("TABLE", "TABLES")) {
                    return renames;
                }
                ifExists(null);
                do {
                    Statement from = statement(ChangeType.RENAME, name());
                    waitOption();
                    if (!accept("TO")) {
                        return List.of();
                    }
                    renames.add(new Rename(from, statement(ChangeType.RENAME, name())));
                } while (accept(","));
                return renames;
            }
            if (accept("ALTER")) {
                acceptAny("ONLINE", "OFFLINE");
                accept("IGNORE");
                if (!accept("TABLE")) {
                    return renames;
                }
                ifExists(null);
                Statement from = statement(ChangeType.RENAME, name());
                waitOption();
                if (accept("RENAME") && !peek().isAny("COLUMN", "INDEX", "KEY")) {
                    acceptAny("TO", "AS");
                    renames.add(new Rename(from, statement(ChangeType.RENAME, name())));
                }
            }
            return renames;
        }

        /** MariaDB's {@code WAIT n} or {@code NOWAIT} after a table name. */
        private void waitOption() {
            if (accept("WAIT")) {
                at++; // the seconds
            } else {
                accept("NOWAIT");
            }
        }

        /** ALTER TABLE: typed by the first alteration, as Canal does. */
        private Statement alteration(String[] table) {
            if (at >= tokens.size() || peek().is(";")) {
                return statement(ChangeType.ALTER, table);
            }
            if (accept("RENAME")) {
                if (acceptAny("COLUMN", "INDEX", "KEY")) {
                    return statement(ChangeType.ALTER, table);
                }
                acceptAny("TO", "AS");
                return named(ChangeType.RENAME);
            }
            if (accept("ADD")) {
                if (accept("CONSTRAINT")) {
                    if (!peek().isAny("UNIQUE", "PRIMARY", "FOREIGN", "CHECK", "INDEX", "KEY")) {
                        at++; // the constraint's name
                    }
                }
                if (peek().isAny("INDEX", "KEY", "UNIQUE", "FULLTEXT", "SPATIAL", "PRIMARY")) {
                    return statement(ChangeType.CINDEX, table);
                }
                return statement(ChangeType.ALTER, table);
            }
            if (accept("DROP")) {
                if (peek().isAny("INDEX", "KEY", "CONSTRAINT")) {
                    return statement(ChangeType.DINDEX, table);
                }
                return statement(ChangeType.ALTER, table);
            }
            return statement(ChangeType.ALTER, table);
        }

        /** {@code ... ON name}: CREATE/DROP INDEX. */
        private Statement afterOn(ChangeType type) {
            while (at < tokens.size() && !tokens.get(at).is("ON")) {
                at++;
            }
            at++; // past ON; name() fails if there was none
            return named(type);
        }

        private Statement database() {
            String[] name = name();
            return new Statement(ChangeType.QUERY, name[1], "");
        }

        private Statement named(ChangeType type) {
            return statement(type, name());
        }

        private Statement statement(ChangeType type, String[] name) {
            return new Statement(type, name[0] == null ? current : name[0], name[1]);
        }

        /** {@code [db.]name} as {database or null, name}. */
        private String[] name() {
            Token first = tokens.get(at++);
            if (!first.isName()) {
                throw new IndexOutOfBoundsException("not a name: " + first.text);
            }
            if (at + 1 < tokens.size() && tokens.get(at).is(".") && tokens.get(at + 1).isName()) {
                at += 2;
                return new String[] {first.text, tokens.get(at - 1).text};
            }
            return new String[] {null, first.text};
        }

        /** {@code IF [NOT] EXISTS}, with NOT when {@code not} is given. */
        private void ifExists(String not) {
            if (peek().is("IF")) {
                at++;
                if (not != null) {
                    accept(not);
                }
                accept("EXISTS");
            }
        }
    }
}
