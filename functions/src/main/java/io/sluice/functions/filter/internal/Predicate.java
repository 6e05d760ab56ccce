package io.sluice.functions.filter.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.runtime.execution.SuppressRestartsException;

import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A row predicate of {@code filter.rows}: {@code col op literal} (op one of {@code = != <> < <= >
 * >=}), {@code col is [not] null}, {@code and}, {@code or} and parentheses. Parsed when the job is
 * built; compiled once per table version to column positions, then tested on a row's UTF-8 text
 * without allocating: a numeric column against a number compares decimal digits in place, any other
 * column compares bytes (binary collation). A comparison with NULL is false.
 */
@Internal
final class Predicate {

    private Predicate() {}

    /** A parsed predicate, not yet bound to a table version. */
    interface Node extends Serializable {
        Test compile(TableSchema schema, String option, String pattern);
    }

    /** A predicate bound to one table version. */
    interface Test {
        boolean test(RowImage row);
    }

    static final Test ALWAYS = row -> true;

    /**
     * Parses {@code text}; fails naming {@code option}, the table {@code pattern} and the 1-based
     * position of the problem.
     */
    static Node parse(String text, String option, String pattern) {
        return new Parser(text, option, pattern).parse();
    }

    private enum Op {
        EQ,
        NE,
        LT,
        LE,
        GT,
        GE;

        boolean holds(int cmp) {
            switch (this) {
                case EQ:
                    return cmp == 0;
                case NE:
                    return cmp != 0;
                case LT:
                    return cmp < 0;
                case LE:
                    return cmp <= 0;
                case GT:
                    return cmp > 0;
                default:
                    return cmp >= 0;
            }
        }
    }

    private static final class Junction implements Node {
        private static final long serialVersionUID = 1L;
        private final boolean and;
        private final Node[] parts;

        Junction(boolean and, List<Node> parts) {
            this.and = and;
            this.parts = parts.toArray(new Node[0]);
        }

        @Override
        public Test compile(TableSchema schema, String option, String pattern) {
            Test[] tests = new Test[parts.length];
            for (int i = 0; i < parts.length; i++) {
                tests[i] = parts[i].compile(schema, option, pattern);
            }
            if (and) {
                return row -> {
                    for (Test t : tests) {
                        if (!t.test(row)) {
                            return false;
                        }
                    }
                    return true;
                };
            }
            return row -> {
                for (Test t : tests) {
                    if (t.test(row)) {
                        return true;
                    }
                }
                return false;
            };
        }
    }

    /** A column reference with the position it was written at, for errors. */
    private abstract static class ColumnNode implements Node {
        private static final long serialVersionUID = 1L;
        final String column;
        final int position;

        ColumnNode(String column, int position) {
            this.column = column;
            this.position = position;
        }

        int indexIn(TableSchema schema, String option, String pattern) {
            for (int i = 0; i < schema.columnCount(); i++) {
                if (schema.name(i).equalsIgnoreCase(column)) {
                    return i;
                }
            }
            throw new SuppressRestartsException(
                    new IllegalArgumentException(
                            String.format(
                                    "Option '%s' predicate for table pattern '%s' names column '%s'"
                                            + " at position %d, but %s.%s has no such column",
                                    option,
                                    pattern,
                                    column,
                                    position,
                                    schema.database(),
                                    schema.table())));
        }
    }

    private static final class NullCheck extends ColumnNode {
        private static final long serialVersionUID = 1L;
        private final boolean wantNull;

        NullCheck(String column, int position, boolean wantNull) {
            super(column, position);
            this.wantNull = wantNull;
        }

        @Override
        public Test compile(TableSchema schema, String option, String pattern) {
            int c = indexIn(schema, option, pattern);
            return row -> row.isNull(c) == wantNull;
        }
    }

    private static final class Compare extends ColumnNode {
        private static final long serialVersionUID = 1L;
        private final Op op;
        private final byte[] text;
        private final DecimalText number;

        Compare(String column, int position, Op op, String literal, DecimalText number) {
            super(column, position);
            this.op = op;
            this.text = literal.getBytes(StandardCharsets.UTF_8);
            this.number = number;
        }

        @Override
        public Test compile(TableSchema schema, String option, String pattern) {
            int c = indexIn(schema, option, pattern);
            if (number != null && isNumeric(schema.sqlType(c))) {
                return row -> {
                    if (row.isNull(c)) {
                        return false;
                    }
                    int cmp = number.compareTo(row.utf8(), row.start(c), row.length(c));
                    return cmp != DecimalText.NOT_COMPARABLE && op.holds(cmp);
                };
            }
            return row -> {
                if (row.isNull(c)) {
                    return false;
                }
                int start = row.start(c);
                return op.holds(
                        Arrays.compareUnsigned(
                                row.utf8(), start, start + row.length(c), text, 0, text.length));
            };
        }

        private static boolean isNumeric(int sqlType) {
            switch (sqlType) {
                case Types.TINYINT:
                case Types.SMALLINT:
                case Types.INTEGER:
                case Types.BIGINT:
                case Types.DECIMAL:
                case Types.NUMERIC:
                case Types.FLOAT:
                case Types.REAL:
                case Types.DOUBLE:
                    return true;
                default:
                    return false;
            }
        }
    }

    /** Recursive descent over the predicate text. */
    private static final class Parser {
        private final String text;
        private final String option;
        private final String pattern;
        private int pos;

        Parser(String text, String option, String pattern) {
            this.text = text;
            this.option = option;
            this.pattern = pattern;
        }

        Node parse() {
            if (text.isBlank()) {
                throw error(0, "an empty predicate");
            }
            Node node = or();
            skipSpace();
            if (pos < text.length()) {
                throw error(pos, "'and', 'or' or the end, not '" + rest() + "'");
            }
            return node;
        }

        private Node or() {
            List<Node> parts = new ArrayList<>();
            parts.add(and());
            while (keyword("or")) {
                parts.add(and());
            }
            return parts.size() == 1 ? parts.get(0) : new Junction(false, parts);
        }

        private Node and() {
            List<Node> parts = new ArrayList<>();
            parts.add(atom());
            while (keyword("and")) {
                parts.add(atom());
            }
            return parts.size() == 1 ? parts.get(0) : new Junction(true, parts);
        }

        private Node atom() {
            skipSpace();
            if (peek() == '(') {
                pos++;
                Node inner = or();
                skipSpace();
                if (peek() != ')') {
                    throw error(pos, "')'");
                }
                pos++;
                return inner;
            }
            int at = pos;
            String column = identifier();
            if (keyword("is")) {
                boolean not = keyword("not");
                if (!keyword("null")) {
                    throw error(pos, "'null' after 'is'" + (not ? " not" : ""));
                }
                return new NullCheck(column, at + 1, !not);
            }
            Op op = operator();
            skipSpace();
            int literalAt = pos;
            char c = peek();
            if (c == '\'') {
                String literal = quoted();
                return new Compare(column, at + 1, op, literal, DecimalText.parse(literal));
            }
            int start = pos;
            while (pos < text.length() && "+-.0123456789".indexOf(text.charAt(pos)) >= 0) {
                pos++;
            }
            String literal = text.substring(start, pos);
            DecimalText number = DecimalText.parse(literal);
            if (number == null) {
                throw error(literalAt, "a number or a 'quoted' string");
            }
            return new Compare(column, at + 1, op, literal, number);
        }

        private String identifier() {
            skipSpace();
            if (peek() == '`') {
                int end = text.indexOf('`', pos + 1);
                if (end < 0) {
                    throw error(pos, "a closing '`'");
                }
                String name = text.substring(pos + 1, end);
                pos = end + 1;
                return name;
            }
            int start = pos;
            while (pos < text.length()
                    && (Character.isLetterOrDigit(text.charAt(pos))
                            || text.charAt(pos) == '_'
                            || text.charAt(pos) == '$')) {
                pos++;
            }
            if (start == pos || Character.isDigit(text.charAt(start))) {
                pos = start;
                throw error(start, "a column name");
            }
            return text.substring(start, pos);
        }

        private Op operator() {
            skipSpace();
            String[] symbols = {"<=", ">=", "<>", "!=", "=", "<", ">"};
            Op[] ops = {Op.LE, Op.GE, Op.NE, Op.NE, Op.EQ, Op.LT, Op.GT};
            for (int i = 0; i < symbols.length; i++) {
                if (text.startsWith(symbols[i], pos)) {
                    pos += symbols[i].length();
                    return ops[i];
                }
            }
            throw error(pos, "an operator (= != <> < <= > >=) or 'is [not] null'");
        }

        private String quoted() {
            StringBuilder out = new StringBuilder();
            int start = pos++;
            while (pos < text.length()) {
                char c = text.charAt(pos++);
                if (c == '\'') {
                    if (peek() == '\'') {
                        out.append('\'');
                        pos++;
                    } else {
                        return out.toString();
                    }
                } else {
                    out.append(c);
                }
            }
            throw error(start, "a closing quote for the string starting");
        }

        private boolean keyword(String word) {
            skipSpace();
            int end = pos + word.length();
            if (text.regionMatches(true, pos, word, 0, word.length())
                    && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end)))) {
                pos = end;
                return true;
            }
            return false;
        }

        private void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private char peek() {
            return pos < text.length() ? text.charAt(pos) : '\0';
        }

        private String rest() {
            return text.substring(pos, Math.min(text.length(), pos + 20));
        }

        private IllegalArgumentException error(int at, String expected) {
            return new IllegalArgumentException(
                    String.format(
                            "Option '%s' has a bad predicate for table pattern '%s' at position %d"
                                    + " of '%s': expected %s",
                            option, pattern, at + 1, text, expected));
        }
    }
}
