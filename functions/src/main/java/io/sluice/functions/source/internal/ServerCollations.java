package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import io.debezium.relational.TableId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The orders of string chunk-key columns, from the source server's own weights: a column's
 * collation from {@code information_schema.COLUMNS}, then one query for the {@code WEIGHT_STRING}
 * of every BMP character in that collation ({@link CollationOrder}), cached per collation. Nothing
 * is asked until a string column's order is first wanted.
 *
 * <p>Only collations whose weights are context-free are taken: binary ({@code _bin}), {@code
 * _general_ci} and its NO PAD and mysql500 forms, {@code _unicode_ci} and {@code _unicode_520_ci}
 * (with or without NO PAD), MySQL 8's {@code utf8mb4_0900_ai_ci} and {@code utf8mb4_0900_bin}, and
 * the collations of single-byte charsets; each must also weigh a list of strings with known
 * contractions and of two levels exactly as the concatenation of their characters' weights.
 *
 * <p>Single-level UCA collations with contractions ({@code uca1400_ai_ci}, language tailorings such
 * as {@code utf8mb4_czech_ci}) are exact as well: keys of characters proven context-free come from
 * the table, every other key is the server's {@code WEIGHT_STRING} of the whole string ({@link
 * CollationOrder#withServer}); so are MariaDB's NO PAD multi-level UCA collations ({@code
 * utf8mb4_uca1400_nopad_as_cs}) and MySQL 8's {@code utf8mb4_0900_as_cs} and {@code
 * utf8mb4_0900_as_ci} (tailored too), every key from the server. PAD SPACE multi-level collations
 * ({@code _as_cs}, {@code _ai_cs}, {@code latin2_czech_cs}) and Asian multi-byte charsets are
 * refused.
 */
@Internal
public final class ServerCollations implements AutoCloseable {

    /** Context-free collations by name, beside those of single-byte charsets. */
    private static final Pattern MODELLED =
            Pattern.compile(
                    "[a-z0-9]+_(bin|nopad_bin|general_ci|general_nopad_ci|general_mysql500_ci"
                            + "|unicode_ci|unicode_nopad_ci|unicode_520_ci|unicode_520_nopad_ci"
                            + "|0900_ai_ci|0900_bin)");

    /**
     * Single-level UCA collations ({@code _ci} or {@code _ai_ci}, not {@code _as_ci}) of Unicode
     * charsets: with contractions, their keys are the server's whole-string weights, which compare
     * as bytes. Multi-level ones are refused: MariaDB's {@code WEIGHT_STRING} puts the levels one
     * after the other with no separator ('ab' in utf8mb4_uca1400_as_cs is 2075208F 00200020
     * 00020002) and keeps trailing spaces in each, so PAD SPACE cannot be applied to the bytes.
     */
    private static final Pattern SINGLE_LEVEL =
            Pattern.compile(
                    "(utf8|utf8mb3|utf8mb4|ucs2|utf16|utf16le|utf32)_[a-z0-9_]*(?<!_as)_ci");

    /**
     * MariaDB's NO PAD multi-level UCA collations: every key is the server's whole-string weights,
     * whose levels (one after the other, no separator) compare as bytes as the server compares
     * level by level, if every weight of a level is above every weight of the levels below ({@link
     * CollationWeights#checkLevels}). Not {@code _ai_cs}: its weights keep the tertiary weight of
     * an accent the server's comparison skips ('é' weighs 20DB 0002 0002, 'e' 20DB 0002, equal to
     * the server).
     */
    private static final Pattern MULTI_LEVEL_NO_PAD =
            Pattern.compile(
                    "(utf8mb3|utf8mb4|ucs2|utf16|utf16le|utf32)_uca1400_([a-z0-9]+_)?nopad"
                            + "_(as_cs|as_ci)");

    /**
     * MySQL 8's NO PAD multi-level UCA 9.0.0 collations, untailored or tailored ({@code
     * utf8mb4_0900_as_cs}, {@code utf8mb4_de_pb_0900_as_cs}): every key is the server's
     * whole-string weights, which put a 0x0000 unit between the levels ('ab' in utf8mb4_0900_as_cs
     * is 1C47 1C60 0000 0020 0020 0000 0002 0002). No weight is 0x0000, so a key whose level ends
     * first sorts first, as the server's level-by-level comparison does; {@link
     * CollationWeights#checkSeparated} proves the separators over the BMP.
     */
    private static final Pattern MYSQL_MULTI_LEVEL =
            Pattern.compile("utf8mb4_([a-z_]+_)?0900_(as_cs|as_ci)");

    /**
     * Strings whose weights differ from their characters' weights in collations with contractions
     * (Czech/Spanish ch, ll; Hungarian cs, dzs, gy; Danish aa; Croatian lj, nj, dž; Catalan l·l;
     * DUCET's Cyrillic letters with combining marks, Sinhala, Tamil, Tibetan, Thai and Lao
     * prevowels, Japanese length and iteration marks) or several levels (ab).
     */
    static final List<String> PROBES =
            List.of(
                    "ab",
                    "ch",
                    "CH",
                    "Ch",
                    "ll",
                    "LL",
                    "rr",
                    "aa",
                    "AA",
                    "Aa",
                    "cs",
                    "dz",
                    "dzs",
                    "gy",
                    "ly",
                    "ny",
                    "sz",
                    "ty",
                    "zs",
                    "lj",
                    "nj",
                    "d\u017E",
                    "l\u00B7l",
                    "\u0438\u0306",
                    "\u0418\u0306",
                    "\u0435\u0308",
                    "\u0415\u0308",
                    "\u0433\u0301",
                    "\u0DD9\u0DCF",
                    "\u0B92\u0BD7",
                    "\u0FB2\u0F71",
                    "\u0FB2\u0F80",
                    "\u0E40\u0E01",
                    "\u0EC0\u0E81",
                    "\u30AB\u30FC",
                    "\u304B\u309D",
                    "ae",
                    "oe",
                    "ss",
                    "th",
                    "a\u0300",
                    "o\u0308",
                    "u\u0308");

    private static final Logger LOG = LoggerFactory.getLogger(ServerCollations.class);

    private final SourceJdbc jdbc;
    private final Map<String, CollationOrder> byCollation = new HashMap<>();

    /** The tables already told that the server weighs some of their keys. */
    private final Set<TableId> toldServerWeighs = new HashSet<>();

    /** The connection that weighs keys on the server, opened at the first such key. */
    private Connection weighing;

    private boolean closed;

    /** Why each collation found so far cannot be modelled. */
    private final Map<String, String> refused = new HashMap<>();

    public ServerCollations(SourceJdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The order of the string column {@code column} of {@code table}.
     *
     * @throws IllegalStateException if the column is not found, is an ENUM or SET (ordered by
     *     position, not by text), or its collation cannot be modelled exactly
     */
    public CollationOrder ofColumn(TableId table, String column) {
        String[] found = collationOf(table, column);
        return of(table, column, found[0], found[1], found[2]);
    }

    /**
     * The order of a column whose type ({@code DATA_TYPE}), charset and collation are known.
     *
     * @throws Refused if the column is an ENUM or SET or its collation cannot be modelled exactly
     */
    public CollationOrder of(
            TableId table, String column, String type, String charset, String collation) {
        if (type.equalsIgnoreCase("enum") || type.equalsIgnoreCase("set") || collation == null) {
            throw refusal(
                    table,
                    column,
                    collation,
                    "the column is " + type + ", which the server orders otherwise than its text");
        }
        if (refused.containsKey(collation)) {
            throw refusal(table, column, collation, refused.get(collation));
        }
        CollationOrder order = byCollation.get(collation);
        if (order == null) {
            long start = System.nanoTime();
            try {
                order = load(charset, collation);
            } catch (IllegalArgumentException e) {
                refused.put(collation, e.getMessage());
                throw refusal(table, column, collation, e.getMessage());
            }
            byCollation.put(collation, order);
            LOG.info(
                    "String chunk keys of {} compare in collation {} ({}), its weights read from"
                            + " the server in {} ms",
                    table,
                    collation,
                    order.isPadSpace() ? "PAD SPACE" : "NO PAD",
                    (System.nanoTime() - start) / 1_000_000);
        }
        if (order.weighsOnServer() && toldServerWeighs.add(table)) {
            LOG.info(
                    "Collation {} of the chunk key column '{}' of {} has contractions or several"
                            + " levels: its keys beyond Latin-1 or with a middle dot (every key of"
                            + " a tailoring or multi-level collation) are weighed by the server,"
                            + " one query per distinct key compared with the chunk bounds",
                    collation,
                    column,
                    table);
        }
        return order;
    }

    /**
     * Why the chunk key column {@code column} of {@code table} cannot be compared, or null if it
     * can or is no string column; reads its collation's weights.
     */
    public String refusal(TableId table, String column) {
        try {
            String[] found = collationOf(table, column);
            return refusal(table, column, found[0], found[1], found[2]);
        } catch (Refused e) {
            return e.getMessage();
        }
    }

    /** The same for a column whose type, charset and collation (null: no string) are known. */
    public String refusal(
            TableId table, String column, String type, String charset, String collation) {
        if (collation == null) {
            return null;
        }
        try {
            of(table, column, type, charset, collation);
            return null;
        } catch (Refused e) {
            return e.getMessage();
        }
    }

    /** A column whose collation Sluice cannot model. */
    public static final class Refused extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }

    /**
     * The order of {@code collation} of {@code charset}, checked against the server.
     *
     * @throws IllegalArgumentException if the collation's weights are not context-free
     */
    public CollationOrder load(String charset, String collation) {
        check(charset, "charset");
        check(collation, "collation");
        try (Connection connection = jdbc.connect()) {
            byte[][] weights = CollationWeights.bmpWeights(connection, charset, collation);
            String contraction = null;
            for (String probe : PROBES) {
                byte[] server = CollationWeights.weightOf(connection, charset, collation, probe);
                byte[] java = CollationWeights.concatenated(weights, probe);
                if (!Arrays.equals(java, server) && contraction == null) {
                    contraction =
                            String.format(
                                    "the server weighs '%s' %s, not as its characters' weights"
                                            + " one after the other (%s): a contraction or"
                                            + " several levels",
                                    probe, CollationOrder.hex(server), CollationOrder.hex(java));
                }
            }
            boolean known =
                    CollationWeights.singleByte(connection, charset)
                            || MODELLED.matcher(collation).matches();
            boolean tableOnly = contraction == null && known;
            if (!tableOnly
                    && MULTI_LEVEL_NO_PAD.matcher(collation).matches()
                    && !CollationWeights.padsSpace(connection, charset, collation)) {
                CollationWeights.checkLevels(connection, charset, collation);
                return CollationOrder.of(
                                collation,
                                weights,
                                false,
                                codePoints -> supplementary(charset, collation, codePoints))
                        .withServer(new BitSet(), text -> weighOnServer(charset, collation, text));
            }
            if (!tableOnly
                    && MYSQL_MULTI_LEVEL.matcher(collation).matches()
                    && !CollationWeights.padsSpace(connection, charset, collation)) {
                CollationWeights.checkSeparated(weights, collation.endsWith("_cs") ? 3 : 2);
                return CollationOrder.of(
                                collation,
                                weights,
                                false,
                                codePoints -> supplementary(charset, collation, codePoints))
                        .withServer(new BitSet(), text -> weighOnServer(charset, collation, text));
            }
            if (!tableOnly
                    && (!SINGLE_LEVEL.matcher(collation).matches()
                            || !Arrays.equals(
                                    CollationWeights.weightOf(connection, charset, collation, "ab"),
                                    CollationWeights.concatenated(weights, "ab")))) {
                throw new IllegalArgumentException(
                        contraction != null
                                ? contraction
                                : "its weights are not known to be its characters' weights one"
                                        + " after the other (it may have contractions or several"
                                        + " levels)");
            }
            CollationOrder order =
                    CollationOrder.of(
                            collation,
                            weights,
                            CollationWeights.padsSpace(connection, charset, collation),
                            codePoints -> supplementary(charset, collation, codePoints));
            if (tableOnly) {
                return order;
            }
            return order.withServer(
                    CollationWeights.tabled(connection, charset, collation),
                    text -> weighOnServer(charset, collation, text));
        } catch (SQLException e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot read the weights of collation %s from the source server at"
                                    + " %s: %s",
                            collation, jdbc.address(), e.getMessage()),
                    e);
        }
    }

    /**
     * A whole string's weights, asked on the connection kept for this (opened at the first key,
     * once more if it broke, e.g. by the server's {@code wait_timeout}).
     */
    private synchronized byte[] weighOnServer(String charset, String collation, String text) {
        if (closed) {
            throw new IllegalStateException("The collations of " + jdbc.address() + " are closed");
        }
        SQLException failure = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                if (weighing == null) {
                    weighing = jdbc.connect();
                }
                return CollationWeights.weightOf(weighing, charset, collation, text);
            } catch (SQLException e) {
                failure = e;
                closeWeighing();
            }
        }
        throw new IllegalStateException(
                String.format(
                        "Cannot read the weights of a string chunk key in collation %s from"
                                + " the source server at %s: %s",
                        collation, jdbc.address(), failure.getMessage()),
                failure);
    }

    /** Closes the connection kept for weighing keys; later keys fail. */
    @Override
    public synchronized void close() {
        closed = true;
        closeWeighing();
    }

    private void closeWeighing() {
        if (weighing != null) {
            try {
                weighing.close();
            } catch (SQLException e) {
                LOG.debug("Closing the connection that weighed string chunk keys failed", e);
            }
            weighing = null;
        }
    }

    private String[] collationOf(TableId table, String column) {
        try (Connection connection = jdbc.connect();
                PreparedStatement query =
                        connection.prepareStatement(
                                "SELECT DATA_TYPE, CHARACTER_SET_NAME, COLLATION_NAME"
                                        + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?"
                                        + " AND TABLE_NAME = ? AND COLUMN_NAME = ?")) {
            query.setString(1, table.catalog());
            query.setString(2, table.table());
            query.setString(3, column);
            try (ResultSet found = query.executeQuery()) {
                if (!found.next()) {
                    throw new Refused(
                            String.format(
                                    "The chunk key column '%s' of %s is not in the server's"
                                            + " information_schema.COLUMNS",
                                    column, table));
                }
                return new String[] {
                    found.getString(1).toLowerCase(Locale.ROOT),
                    found.getString(2),
                    found.getString(3)
                };
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot read the collation of the chunk key column '%s' of %s from"
                                    + " the source server at %s: %s",
                            column, table, jdbc.address(), e.getMessage()),
                    e);
        }
    }

    private static Refused refusal(TableId table, String column, String collation, String why) {
        return new Refused(
                String.format(
                        "'source.reader' = 'sluice' compares the string chunk keys of %s in their"
                                + " column's collation, but cannot for the chunk key column '%s'"
                                + " (collation %s): %s; take another chunk key column"
                                + " ('source.snapshot.chunk-key-columns') or 'source.reader' ="
                                + " 'flink-cdc'",
                        table, column, collation, why));
    }

    /** Names go into SQL text: only what a charset or collation name can be. */
    private static void check(String name, String what) {
        if (name == null || !name.matches("[A-Za-z0-9_]+")) {
            throw new IllegalArgumentException("Not a " + what + " name: " + name);
        }
    }

    /** The weights of characters beyond U+FFFF, when a key first has them: one query. */
    private byte[][] supplementary(String charset, String collation, int[] codePoints) {
        StringBuilder sql = new StringBuilder();
        for (int cp : codePoints) {
            sql.append(sql.length() == 0 ? "SELECT " : " UNION ALL SELECT ")
                    .append(cp)
                    .append(", WEIGHT_STRING(CONVERT(CHAR(")
                    .append(cp)
                    .append(" USING utf32) USING ")
                    .append(charset)
                    .append(") COLLATE ")
                    .append(collation)
                    .append(")");
        }
        Map<Integer, byte[]> found = new HashMap<>();
        try (Connection connection = jdbc.connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql.toString())) {
            while (rows.next()) {
                byte[] weight = rows.getBytes(2);
                found.put(rows.getInt(1), weight == null ? new byte[0] : weight);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot read the weights of %d characters beyond U+FFFF in collation"
                                    + " %s from the source server at %s: %s",
                            codePoints.length, collation, jdbc.address(), e.getMessage()),
                    e);
        }
        byte[][] weights = new byte[codePoints.length][];
        for (int i = 0; i < codePoints.length; i++) {
            weights[i] = found.get(codePoints[i]);
        }
        return weights;
    }
}
