package io.sluice.functions.source.internal;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.BitSet;
import java.util.regex.Pattern;

/**
 * A collation's weights as the server gives them ({@code WEIGHT_STRING}), read over JDBC: every BMP
 * character's, a string's, the proof that strings of some characters weigh as their characters one
 * after the other, and whether the levels of a multi-level collation stay apart. {@link
 * ServerCollations} decides from these which collations it can model.
 */
final class CollationWeights {

    private static final Logger LOG = LoggerFactory.getLogger(CollationWeights.class);

    /** The untailored UCA collations with contractions, whose Latin-1 strings are proven. */
    private static final Pattern ROOT_UCA =
            Pattern.compile("[a-z0-9]+_(uca1400_ai_ci|uca1400_nopad_ai_ci|0900_ai_ci)");

    /**
     * The code points whose strings a single-level collation with contractions weighs from its
     * table: for the root UCA collations, Latin-1 without U+00B7 (the middle dot of Catalan l·l) if
     * every pair of them weighs as the concatenation of its characters' weights (one query of
     * 65,025 rows). Pairs prove two-character strings; longer ones rest on the UCA: of DUCET's
     * contractions only Catalan L·/l· starts in Latin-1 (the others start with Cyrillic, Arabic,
     * Thai, Lao, Tai Viet, Balinese… letters; the contraction heads of libnu's DUCET table, and on
     * MariaDB 11.4 the only Latin-1 pairs that fail are L· and l·), and all 16.6 million triples of
     * these characters weigh as their concatenation in utf8mb4_uca1400_ai_ci. Tailorings add
     * contractions of their own: none is proven, every string is weighed by the server.
     */
    static BitSet tabled(Connection connection, String charset, String collation)
            throws SQLException {
        BitSet tabled = new BitSet();
        if (!ROOT_UCA.matcher(collation).matches()) {
            return tabled;
        }
        String chars =
                String.format(
                        "(WITH RECURSIVE d (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n"
                                + " < 255) SELECT CONVERT(CHAR(n USING utf32) USING %s) c FROM d"
                                + " WHERE n <> 183)",
                        charset);
        String sql =
                String.format(
                        "SELECT COUNT(*) FROM %1$s a, %1$s b WHERE WEIGHT_STRING(CONCAT(a.c,"
                                + " b.c) COLLATE %2$s) <> CONCAT(WEIGHT_STRING(a.c COLLATE %2$s),"
                                + " WEIGHT_STRING(b.c COLLATE %2$s))",
                        chars, collation);
        try (Statement statement = connection.createStatement();
                ResultSet differ = statement.executeQuery(sql)) {
            differ.next();
            if (differ.getLong(1) != 0) {
                LOG.warn(
                        "{} of the Latin-1 pairs weigh otherwise than their characters in {}: the"
                                + " server weighs all its string chunk keys",
                        differ.getLong(1),
                        collation);
                return tabled;
            }
        }
        tabled.set(0, 0x100);
        tabled.clear(0xB7);
        return tabled;
    }

    /**
     * Checks over the BMP that each weight of a level of {@code collation} is above every weight of
     * its lower levels (UCA's well-formedness; in uca1400_nopad_as_cs the primaries start at
     * 0x0201, the secondaries end at 0x011C, the tertiaries at 0x001E). Then, with no separator, a
     * key whose level ends first sorts first, as the server's level-by-level comparison does under
     * NO PAD. Characters beyond U+FFFF take UCA's implicit primaries, above these.
     *
     * @throws IllegalArgumentException if a level's weights reach into a higher level's
     */
    static void checkLevels(Connection connection, String charset, String collation)
            throws SQLException {
        boolean tertiary = collation.endsWith("_cs");
        String sql =
                String.format(
                        "WITH RECURSIVE d (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n"
                                + " < 255), c (s) AS (SELECT CONVERT(CHAR(hi.n * 256 + lo.n USING"
                                + " utf32) USING %s) COLLATE %s FROM d hi, d lo WHERE hi.n * 256 +"
                                + " lo.n NOT BETWEEN 55296 AND 57343) SELECT WEIGHT_STRING(s LEVEL"
                                + " 1), WEIGHT_STRING(s LEVEL 2), WEIGHT_STRING(s LEVEL 3) FROM c",
                        charset, collation);
        int[] min = {0x10000, 0x10000, 0x10000};
        int[] max = {-1, -1, -1};
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                for (int level = 0; level < 3; level++) {
                    byte[] weights = rows.getBytes(level + 1);
                    for (int i = 0; weights != null && i + 1 < weights.length; i += 2) {
                        int unit = (weights[i] & 0xff) << 8 | (weights[i + 1] & 0xff);
                        min[level] = Math.min(min[level], unit);
                        max[level] = Math.max(max[level], unit);
                    }
                }
            }
        }
        // LEVEL 3 of a _ci collation repeats its secondaries: only _cs has tertiaries.
        boolean separated =
                min[0] > Math.max(max[1], tertiary ? max[2] : -1) && (!tertiary || min[1] > max[2]);
        String ranges =
                String.format(
                        "primary weights from 0x%04X, secondary 0x%04X to 0x%04X, tertiary up to"
                                + " 0x%04X",
                        min[0], min[1], max[1], max[2]);
        if (!separated) {
            throw new IllegalArgumentException(
                    "its levels overlap ("
                            + ranges
                            + "), so its weights, the levels one after the other, do not compare"
                            + " as bytes");
        }
        LOG.info("Collation {} keeps its levels apart: {}", collation, ranges);
    }

    /**
     * Checks that each BMP character's weights in a MySQL 0900 collation of {@code levels} levels
     * hold exactly {@code levels - 1} 0x0000 units (the separators between the levels, MySQL's
     * {@code WEIGHT_STRING} layout) and no other: then whole strings' weights compare as bytes as
     * the server compares level by level, a level that ends first sorting first.
     *
     * @throws IllegalArgumentException naming a character whose weights are laid out otherwise
     */
    static void checkSeparated(byte[][] weights, int levels) {
        for (int cp = 0; cp < weights.length; cp++) {
            byte[] weight = weights[cp];
            if (weight == null || weight.length == 0) {
                continue;
            }
            int zeros = 0;
            for (int i = 0; i + 1 < weight.length; i += 2) {
                if (weight[i] == 0 && weight[i + 1] == 0) {
                    zeros++;
                }
            }
            if (weight.length % 2 != 0 || zeros != levels - 1) {
                throw new IllegalArgumentException(
                        String.format(
                                "the server weighs U+%04X %s, not as %d levels with a 0x0000"
                                        + " unit between them, so its weights do not compare as"
                                        + " bytes",
                                cp, CollationOrder.hex(weight), levels));
            }
        }
    }

    static boolean singleByte(Connection connection, String charset) throws SQLException {
        try (PreparedStatement query =
                connection.prepareStatement(
                        "SELECT MAXLEN FROM information_schema.CHARACTER_SETS"
                                + " WHERE CHARACTER_SET_NAME = ?")) {
            query.setString(1, charset);
            try (ResultSet found = query.executeQuery()) {
                return found.next() && found.getInt(1) == 1 && !charset.equals("binary");
            }
        }
    }

    /** PAD SPACE if 'a' and 'a ' are equal; asked, as MariaDB has no PAD_ATTRIBUTE column. */
    static boolean padsSpace(Connection connection, String charset, String collation)
            throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet equal =
                        statement.executeQuery(
                                String.format(
                                        "SELECT CONVERT(_utf8mb4'a' USING %1$s) COLLATE %2$s"
                                                + " = CONVERT(_utf8mb4'a ' USING %1$s)",
                                        charset, collation))) {
            equal.next();
            return equal.getBoolean(1);
        }
    }

    /**
     * Every BMP character's weights in one query over 0..65535 (a recursive CTE of 256 steps, in
     * MySQL 8's default {@code cte_max_recursion_depth} of 1000; MariaDB runs the same SQL).
     * Characters the charset lacks weigh as the server's conversion makes them ('?'): a column of
     * that charset holds none of them.
     */
    static byte[][] bmpWeights(Connection connection, String charset, String collation)
            throws SQLException {
        byte[][] weights = new byte[0x10000][];
        String sql =
                String.format(
                        "WITH RECURSIVE d (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n"
                                + " < 255) SELECT hi.n * 256 + lo.n, WEIGHT_STRING(CONVERT("
                                + "CHAR(hi.n * 256 + lo.n USING utf32) USING %s) COLLATE %s)"
                                + " FROM d hi, d lo WHERE hi.n * 256 + lo.n NOT BETWEEN 55296 AND"
                                + " 57343",
                        charset, collation);
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                byte[] weight = rows.getBytes(2);
                weights[rows.getInt(1)] = weight == null ? new byte[0] : weight;
            }
        }
        for (int cp = 0; cp < weights.length; cp++) {
            if (weights[cp] == null && !Character.isSurrogate((char) cp)) {
                throw new IllegalStateException(
                        String.format("The server gave no weight of U+%04X in %s", cp, collation));
            }
        }
        return weights;
    }

    static byte[] weightOf(Connection connection, String charset, String collation, String text)
            throws SQLException {
        try (PreparedStatement query =
                connection.prepareStatement(
                        String.format(
                                "SELECT WEIGHT_STRING(CONVERT(CONVERT(UNHEX(?) USING utf8mb4)"
                                        + " USING %s) COLLATE %s)",
                                charset, collation))) {
            query.setString(1, hex(text));
            try (ResultSet weight = query.executeQuery()) {
                weight.next();
                byte[] bytes = weight.getBytes(1);
                return bytes == null ? new byte[0] : bytes;
            }
        }
    }

    static String hex(String text) {
        return CollationOrder.hex(text.getBytes(StandardCharsets.UTF_8)).substring(2);
    }

    /** A string's weights as the concatenation of its BMP characters' weights. */
    static byte[] concatenated(byte[][] weights, String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        text.chars().forEach(c -> out.writeBytes(weights[c]));
        return out.toByteArray();
    }

    private CollationWeights() {}
}
