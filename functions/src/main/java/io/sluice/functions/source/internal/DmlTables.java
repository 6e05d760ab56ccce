package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.source.internal.SqlTokens.Token;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The tables a DML statement writes: INSERT, REPLACE, UPDATE, DELETE and LOAD DATA (or XML), with a
 * leading WITH. The binlog holds such a statement as text only when the session that ran it logged
 * statements ({@code binlog_format} STATEMENT, or MIXED for a statement it deems safe), and then
 * the statement's rows are in no rows event.
 *
 * <p>A keyword scanner like {@link DdlClassifier}, not a SQL parser. A multi-table UPDATE writes
 * the tables its SET clause qualifies (all of its tables when one column is unqualified); a
 * multi-table DELETE its targets, aliases resolved. Tables a statement only reads (INSERT … SELECT,
 * joins) are not named; neither are the tables its triggers or stored functions write.
 */
@Internal
public final class DmlTables {

    /** Tokens read at most: a statement names its tables before its values. */
    private static final int MAX_TOKENS = 10_000;

    /** Where one DML statement's table references end. */
    private static final String[] AFTER_REFERENCES = {
        "SET", "WHERE", "ORDER", "LIMIT", "RETURNING"
    };

    /** Words after a table name that are not its alias. */
    private static final String[] NOT_ALIASES = {
        "ON", "USING", "JOIN", "STRAIGHT_JOIN", "INNER", "CROSS", "LEFT", "RIGHT", "NATURAL",
        "OUTER", "SET", "WHERE", "ORDER", "LIMIT", "RETURNING", "USE", "IGNORE", "FORCE",
        "PARTITION", "FOR"
    };

    /** The words a DML statement starts with (WITH: common table expressions before one). */
    private static final String[] VERBS = {"INSERT", "REPLACE", "UPDATE", "DELETE", "LOAD", "WITH"};

    private DmlTables() {}

    /** A table as {@code database.table}. */
    public record Name(String database, String table) {
        @Override
        public String toString() {
            return database + "." + table;
        }

        // Written out: the generated ones would keep the job's class loader alive in a
        // session cluster on Java 17 (JDK-8078641).
        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Name)) {
                return false;
            }
            Name other = (Name) o;
            return Objects.equals(database, other.database) && Objects.equals(table, other.table);
        }

        @Override
        public int hashCode() {
            return Objects.hash(database, table);
        }
    }

    /**
     * The tables {@code sql} writes, or null if it is not a DML statement; empty when it is one
     * whose tables cannot be read from it.
     *
     * @param currentDatabase the database of unqualified names; may be null
     */
    @Nullable
    public static List<Name> written(String sql, String currentDatabase) {
        // Read on every statement: its first word tells DML from the rest before the whole is read.
        List<Token> head = SqlTokens.of(sql, 1);
        if (head.isEmpty() || !head.get(0).isAny(VERBS)) {
            return null;
        }
        List<Token> tokens = SqlTokens.of(sql, MAX_TOKENS);
        Scanner scanner =
                new Scanner(
                        tokens,
                        currentDatabase == null ? "" : currentDatabase,
                        tokens.size() == MAX_TOKENS);
        try {
            return scanner.statement();
        } catch (IndexOutOfBoundsException e) {
            // Ended early or not as expected: a DML verb whose tables this cannot read.
            return scanner.dml ? List.of() : null;
        }
    }

    /** The tables of a table reference list: each name, and its alias or null. */
    private static final class References {
        final List<Name> tables = new ArrayList<>();
        final List<String> aliases = new ArrayList<>();

        void add(Name table, String alias) {
            tables.add(table);
            aliases.add(alias);
        }

        /** The table {@code name} ({database or null, table or alias}) stands for here. */
        Name resolve(String[] name, String current) {
            if (name[0] == null) {
                for (int i = 0; i < tables.size(); i++) {
                    if (name[1].equalsIgnoreCase(aliases.get(i))) {
                        return tables.get(i);
                    }
                }
                for (int i = 0; i < tables.size(); i++) {
                    if (aliases.get(i) == null && name[1].equalsIgnoreCase(tables.get(i).table())) {
                        return tables.get(i);
                    }
                }
                return new Name(current, name[1]);
            }
            return new Name(name[0], name[1]);
        }
    }

    /** Keyword-level reading of one statement. */
    private static final class Scanner extends SqlTokens.Cursor {
        private final String current;
        private final boolean truncated;

        /** A DML verb was read. */
        boolean dml;

        Scanner(List<Token> tokens, String current, boolean truncated) {
            super(tokens);
            this.current = current;
            this.truncated = truncated;
        }

        List<Name> statement() {
            if (accept("WITH")) {
                // Common table expressions: read, never written.
                while (!peek().isAny("INSERT", "REPLACE", "UPDATE", "DELETE")) {
                    if (peek().isAny("SELECT", "TABLE", "VALUES")) {
                        return null; // a query; the expressions' own are skipped whole
                    }
                    skip();
                }
            }
            if (acceptAny("INSERT", "REPLACE")) {
                dml = true;
                acceptAny("LOW_PRIORITY", "DELAYED", "HIGH_PRIORITY");
                accept("IGNORE");
                accept("INTO");
                return List.of(qualified(name()));
            }
            if (accept("LOAD")) {
                if (!acceptAny("DATA", "XML")) {
                    return null;
                }
                dml = true;
                while (!(peek().is("INTO") && tokens.get(at + 1).is("TABLE"))) {
                    skip();
                }
                at += 2;
                return List.of(qualified(name()));
            }
            if (accept("UPDATE")) {
                dml = true;
                acceptAny("LOW_PRIORITY");
                accept("IGNORE");
                References references = references();
                if (!accept("SET")) {
                    return List.of();
                }
                return references.tables.size() == 1 ? references.tables : assigned(references);
            }
            if (accept("DELETE")) {
                dml = true;
                boolean option;
                do {
                    option = acceptAny("LOW_PRIORITY", "QUICK", "IGNORE", "HISTORY");
                } while (option);
                if (accept("FROM")) {
                    List<String[]> targets = targets();
                    if (!accept("USING")) {
                        // DELETE FROM t …: one table (its alias, if any, follows).
                        return List.of(qualified(targets.get(0)));
                    }
                    return resolved(targets, references());
                }
                List<String[]> targets = targets();
                if (!accept("FROM")) {
                    return List.of();
                }
                return resolved(targets, references());
            }
            return null;
        }

        /** {@code t[.*], db.t[.*], …}: a multi-table DELETE's targets. */
        private List<String[]> targets() {
            List<String[]> targets = new ArrayList<>();
            do {
                targets.add(name());
                if (peek().is(".") && tokens.get(at + 1).is("*")) {
                    at += 2;
                }
            } while (accept(","));
            return targets;
        }

        private List<Name> resolved(List<String[]> targets, References references) {
            Set<Name> written = new LinkedHashSet<>();
            for (String[] target : targets) {
                written.add(references.resolve(target, current));
            }
            return new ArrayList<>(written);
        }

        /**
         * A table reference list up to SET, WHERE or the end: each table after the start, a comma
         * or a JOIN, with its alias. Join conditions, index hints, partition lists and derived
         * tables are passed over.
         */
        private References references() {
            References references = new References();
            boolean expectTable = true;
            while (at < tokens.size() && !peek().isAny(AFTER_REFERENCES)) {
                Token token = peek();
                if (token.is("(")) {
                    if (expectTable
                            && !tokens.get(at + 1).isAny("SELECT", "WITH", "VALUES", "TABLE")) {
                        at++; // parentheses around table references
                    } else {
                        skip(); // a derived table, or a condition, hint or list
                        expectTable = false;
                    }
                } else if (token.isAny(",", "JOIN", "STRAIGHT_JOIN")) {
                    at++;
                    expectTable = true;
                } else if (expectTable && token.isName()) {
                    Name table = qualified(name());
                    if (peek().is("PARTITION") && tokens.get(at + 1).is("(")) {
                        at++;
                        skip();
                    }
                    accept("AS");
                    String alias = null;
                    if (peek().isName() && !peek().isAny(NOT_ALIASES)) {
                        alias = tokens.get(at++).text;
                    }
                    references.add(table, alias);
                    expectTable = false;
                } else {
                    at++;
                }
            }
            return references;
        }

        /**
         * A multi-table UPDATE's SET clause: the tables its columns are qualified with, or all of
         * them when one is not (or the clause was cut off).
         */
        private List<Name> assigned(References references) {
            Set<Name> written = new LinkedHashSet<>();
            do {
                List<String> parts = new ArrayList<>();
                parts.add(nameText());
                while (accept(".")) {
                    parts.add(nameText());
                }
                if (parts.size() < 2) {
                    return references.tables;
                }
                String[] qualifier =
                        parts.size() == 2
                                ? new String[] {null, parts.get(0)}
                                : new String[] {parts.get(0), parts.get(1)};
                written.add(references.resolve(qualifier, current));
                while (at < tokens.size() && !peek().is(",") && !peek().isAny(AFTER_REFERENCES)) {
                    skip(); // the value
                }
            } while (accept(","));
            if (truncated && at >= tokens.size()) {
                return references.tables;
            }
            return new ArrayList<>(written);
        }

        /** One token, or a parenthesized group whole. */
        private void skip() {
            if (!tokens.get(at).is("(")) {
                at++;
                return;
            }
            int depth = 0;
            do {
                Token token = tokens.get(at++);
                if (token.is("(")) {
                    depth++;
                } else if (token.is(")")) {
                    depth--;
                }
            } while (depth > 0);
        }

        private Name qualified(String[] name) {
            return new Name(name[0] == null ? current : name[0], name[1]);
        }

        /** {@code [db.]name} as {database or null, name}. */
        private String[] name() {
            String first = nameText();
            if (at + 1 < tokens.size() && tokens.get(at).is(".") && tokens.get(at + 1).isName()) {
                at += 2;
                return new String[] {first, tokens.get(at - 1).text};
            }
            return new String[] {null, first};
        }

        private String nameText() {
            Token token = tokens.get(at++);
            if (!token.isName()) {
                throw new IndexOutOfBoundsException("not a name: " + token.text);
            }
            return token.text;
        }
    }
}
