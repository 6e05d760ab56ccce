package io.sluice.it.source;

import org.apache.flink.configuration.Configuration;

import io.debezium.relational.TableId;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.SourceReaderKind;
import io.sluice.functions.source.StartupMode;
import io.sluice.functions.source.internal.CollationOrder;
import io.sluice.functions.source.internal.ServerCollations;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.DatabaseServersExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.Charset;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sluice's order of string chunk keys ({@link ServerCollations}, {@link CollationOrder}) against
 * the server's own: for each collation Sluice models, every pair of a list of strings (cases,
 * accents, trailing spaces and tabs, ß, characters beyond U+FFFF, the empty string) must compare in
 * Java as the server compares them ({@code <}, {@code =}), and the server's {@code ORDER BY} must
 * be ascending in Java; collations with contractions (uca1400, tailorings) included, whose strings
 * with contractions (l·l, Cyrillic with a combining breve, Thai and Lao prevowels) are weighed by
 * the server, and NO PAD multi-level ones, all of whose keys the server weighs. PAD SPACE
 * collations with several levels are refused.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CollationOrderITCase {

    @RegisterExtension
    static final DatabaseServersExtension SERVERS = DatabaseServersExtension.shared();

    private static final List<String> STRINGS =
            List.of(
                    "",
                    " ",
                    "  ",
                    "\t",
                    "a",
                    "A",
                    "a ",
                    "A  ",
                    "a\t",
                    "a \t",
                    "a!",
                    "a\u00A0",
                    "ab",
                    "aB",
                    "Ab",
                    "AB",
                    "a b",
                    "a  b",
                    "b",
                    "B",
                    "m",
                    "M",
                    "z",
                    "Z",
                    "e",
                    "E",
                    "\u00E9",
                    "\u00C9",
                    "\u00E8",
                    "\u00EA",
                    "\u00EB",
                    "f",
                    "\u00DF",
                    "ss",
                    "SS",
                    "sS",
                    "st",
                    "\u015D",
                    "\u00F8",
                    "\u00D8",
                    "o",
                    "\u00F6",
                    "\u00D6",
                    "\u00FC",
                    "ue",
                    "\u00E6",
                    "ae",
                    "\u00E5",
                    "aa",
                    "\u00E4",
                    "0",
                    "9",
                    "_",
                    "-",
                    "~",
                    "\u20AC",
                    "\u00F1",
                    "n",
                    "\u00D1",
                    "\u0131",
                    "i",
                    "I",
                    "\u0130",
                    "\uFB01",
                    "fi",
                    "\u216B",
                    "\u00A0",
                    "\u01C5",
                    "\u0434\u043E\u043C",
                    "\u0414\u043E\u043C",
                    "a\u0300",
                    "\u00E0",
                    "\u4E2D",
                    "\u6587",
                    "\u4E2D\u6587",
                    "\uFFFD",
                    "\uFFFF",
                    "\uD83D\uDE00",
                    "\uD83D\uDE00a",
                    "a\uD83D\uDE00",
                    "\uD83D\uDE42",
                    "\uD840\uDC00",
                    "\uD83D\uDE00 ",
                    "z\uD83D\uDE00",
                    // Contractions of DUCET and of tailorings, beside what they weigh like.
                    "l\u00B7l",
                    "L\u00B7L",
                    "l\u00B7la",
                    "L\u00B7l ",
                    "l\u00B7",
                    "\u00B7",
                    "ll",
                    "lla",
                    "llb",
                    "lm",
                    "ch",
                    "CH",
                    "cz",
                    "h",
                    "\u0438\u0306",
                    "\u0418\u0306",
                    "\u0439",
                    "\u0438",
                    "\u0438\u0306\t",
                    "\u0E40\u0E01",
                    "\u0E01",
                    "\u0E01\u0E40",
                    "\u0E40",
                    "\u0EC0\u0E81",
                    "\u0E81",
                    "\u00E9\u00DF ",
                    "\u00C9SS");

    private static DatabaseServer mariaDb;
    private static String database;
    private static ServerCollations collations;

    private static DatabaseServer mySql;
    private static String mySqlDatabase;
    private static ServerCollations mySqlCollations;

    @BeforeAll
    static void server() {
        mariaDb = SERVERS.server(DatabaseServer.Kind.MARIADB);
        database = mariaDb.createDatabase("collations", null);
        collations = collationsOf(mariaDb);
        mySql = SERVERS.server(DatabaseServer.Kind.MYSQL);
        mySqlDatabase = mySql.createDatabase("collations", null);
        mySqlCollations = collationsOf(mySql);
    }

    private static ServerCollations collationsOf(DatabaseServer server) {
        return new ServerCollations(
                SourceJdbc.of(
                        server.host(), server.port(), server.cdcUser(), server.cdcPassword()));
    }

    @AfterAll
    static void closeCollations() {
        collations.close();
        mySqlCollations.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "utf8mb4 utf8mb4_unicode_ci",
                "utf8mb4 utf8mb4_general_ci",
                "utf8mb4 utf8mb4_bin",
                "utf8mb4 utf8mb4_nopad_bin",
                "utf8mb4 utf8mb4_unicode_nopad_ci",
                "utf8mb4 utf8mb4_unicode_520_ci",
                "utf8mb3 utf8mb3_general_ci",
                "latin1 latin1_swedish_ci",
                "latin1 latin1_german2_ci",
                "utf8mb4 utf8mb4_uca1400_ai_ci",
                "utf8mb4 utf8mb4_uca1400_nopad_ai_ci",
                "utf8mb4 utf8mb4_0900_ai_ci",
                "utf8mb3 utf8mb3_uca1400_ai_ci",
                "utf8mb4 utf8mb4_uca1400_spanish2_ai_ci",
                "utf8mb4 utf8mb4_spanish2_ci",
                "utf8mb4 utf8mb4_czech_ci",
                "utf8mb4 utf8mb4_swedish_ci",
                "utf8mb4 utf8mb4_uca1400_nopad_as_cs",
                "utf8mb4 utf8mb4_uca1400_nopad_as_ci",
                "utf8mb4 utf8mb4_uca1400_czech_nopad_as_cs"
            })
    void javaComparesAsTheServerDoes(String charsetAndCollation) throws SQLException {
        comparesAsTheServer(
                mariaDb,
                database,
                collations,
                charsetAndCollation,
                "utf8.*_(uca1400|0900|spanish2|czech|swedish)_.*");
    }

    /**
     * MySQL 8's own collations: its default utf8mb4_0900_ai_ci (UCA 9.0.0 without DUCET's
     * contractions, WL#9125), the NO PAD 0900 ones (trailing spaces count), its PAD SPACE
     * utf8mb4_general_ci and utf8mb4_bin, and a language tailoring with contractions.
     */
    @ParameterizedTest(name = "MySQL {0}")
    @ValueSource(
            strings = {
                "utf8mb4 utf8mb4_0900_ai_ci",
                "utf8mb4 utf8mb4_0900_as_cs",
                "utf8mb4 utf8mb4_0900_as_ci",
                "utf8mb4 utf8mb4_0900_bin",
                "utf8mb4 utf8mb4_general_ci",
                "utf8mb4 utf8mb4_bin",
                "utf8mb4 utf8mb4_unicode_ci",
                "utf8mb3 utf8mb3_general_ci",
                "latin1 latin1_swedish_ci",
                "utf8mb4 utf8mb4_es_0900_ai_ci",
                "utf8mb4 utf8mb4_cs_0900_as_cs"
            })
    void javaComparesAsMySqlDoes(String charsetAndCollation) throws SQLException {
        comparesAsTheServer(
                mySql,
                mySqlDatabase,
                mySqlCollations,
                charsetAndCollation,
                "utf8mb4_(0900_as_c.|[a-z]+_0900_.*)");
    }

    /**
     * Every pair of STRINGS in {@code charsetAndCollation} compared by {@code server} and by
     * Sluice; {@code weighedOnServer} matches the collations whose keys the server weighs.
     */
    private static void comparesAsTheServer(
            DatabaseServer server,
            String database,
            ServerCollations collations,
            String charsetAndCollation,
            String weighedOnServer)
            throws SQLException {
        String charset = charsetAndCollation.split(" ")[0];
        String collation = charsetAndCollation.split(" ")[1];
        String table = table(server, database, charset, collation);
        long start = System.nanoTime();
        CollationOrder order = collations.ofColumn(new TableId(database, null, table), "s");
        long loaded = System.nanoTime() - start;
        assertThat(order.name()).isEqualTo(collation);
        assertThat(order.weighsOnServer())
                .as(
                        "whether %s has contractions, its keys of them weighed by the server",
                        collation)
                .isEqualTo(collation.matches(weighedOnServer));

        List<String> values = new ArrayList<>();
        List<String> mismatches = new ArrayList<>();
        try (Connection connection = server.connect(database);
                Statement statement = connection.createStatement()) {
            try (ResultSet rows =
                    statement.executeQuery("SELECT s FROM " + table + " ORDER BY i")) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
            // The first keys: those of strings the table does not prove ask the server.
            long keyed = System.nanoTime();
            values.forEach(order::key);
            keyed = System.nanoTime() - keyed;
            System.out.printf(
                    "%s: the keys of %d strings built in %.1f ms%n",
                    collation, values.size(), keyed / 1e6);
            try (ResultSet pairs =
                    statement.executeQuery(
                            "SELECT a.i, b.i, a.s < b.s, a.s = b.s FROM "
                                    + table
                                    + " a, "
                                    + table
                                    + " b")) {
                while (pairs.next()) {
                    String a = values.get(pairs.getInt(1));
                    String b = values.get(pairs.getInt(2));
                    int onServer = pairs.getBoolean(3) ? -1 : pairs.getBoolean(4) ? 0 : 1;
                    int java = Integer.signum(order.compare(a, b));
                    if (onServer != java) {
                        mismatches.add(
                                String.format(
                                        "'%s' vs '%s': server %d, Java %d (keys %s, %s)",
                                        a, b, onServer, java, order.key(a), order.key(b)));
                    }
                }
            }
            String previous = null;
            try (ResultSet sorted =
                    statement.executeQuery("SELECT s FROM " + table + " ORDER BY s, i")) {
                while (sorted.next()) {
                    String next = sorted.getString(1);
                    if (previous != null && order.compare(previous, next) > 0) {
                        mismatches.add("ORDER BY puts '" + previous + "' before '" + next + "'");
                    }
                    previous = next;
                }
            }
        }
        System.out.printf(
                "%s %s: %d strings, %d pairs, weights read in %d ms%n",
                server.kind(),
                collation,
                values.size(),
                values.size() * values.size(),
                loaded / 1_000_000);
        assertThat(values).hasSizeGreaterThan(charset.equals("latin1") ? 60 : 75);
        assertThat(mismatches)
                .as("%s pairs compared otherwise than the server", collation)
                .isEmpty();
    }

    @Test
    void padSpaceCollationsOfSeveralLevelsAreRefused() throws SQLException {
        // MariaDB's WEIGHT_STRING puts the levels one after the other without a separator and
        // keeps trailing spaces in each: 'a' and 'a ' are equal, their weights are not.
        assertThatThrownBy(() -> collations.load("utf8mb4", "utf8mb4_uca1400_as_cs"))
                .hasMessageContaining("the server weighs 'ab'")
                .hasMessageContaining("a contraction or several levels");
        assertThatThrownBy(() -> collations.load("utf8mb4", "utf8mb4_uca1400_ai_cs"))
                .hasMessageContaining("the server weighs 'ab'");
        // NO PAD, but its weights keep an accent's tertiary weight the comparison skips: 'é'
        // weighs 20DB 0002 0002, 'e' 20DB 0002, and the server finds them equal.
        assertThatThrownBy(() -> collations.load("utf8mb4", "utf8mb4_uca1400_nopad_ai_cs"))
                .hasMessageContaining("the server weighs 'ab'");
        assertThatThrownBy(() -> collations.load("utf8mb4", "utf8mb4_uca1400_as_ci"))
                .hasMessageContaining("the server weighs 'ab'");
        // A single-byte charset's collation with Czech 'ch' and several levels.
        assertThatThrownBy(() -> collations.load("latin2", "latin2_czech_cs"))
                .hasMessageContaining("the server weighs 'ab'");
        // An Asian multi-byte charset: single-level, but its weights are not known to be UCA's.
        assertThatThrownBy(() -> collations.load("gbk", "gbk_chinese_ci"))
                .hasMessageContaining("not known to be its characters' weights");

        String table = table(mariaDb, database, "utf8mb4", "utf8mb4_uca1400_as_cs");
        assertThatThrownBy(() -> collations.ofColumn(new TableId(database, null, table), "s"))
                .hasMessageContaining(
                        "compares the string chunk keys of "
                                + database
                                + "."
                                + table
                                + " in their column's collation, but cannot for the chunk key"
                                + " column 's' (collation utf8mb4_uca1400_as_cs)")
                .hasMessageContaining(
                        "take another chunk key column ('source.snapshot.chunk-key-columns') or"
                                + " 'source.reader' = 'flink-cdc'");
        mariaDb.execute(database, "CREATE TABLE sizes (id INT, s ENUM('small', 'big'))");
        assertThatThrownBy(() -> collations.ofColumn(new TableId(database, null, "sizes"), "s"))
                .hasMessageContaining("the column is enum");
    }

    @Test
    void mySqlCollationsOfFourLevelsOrOfAsianCharsetsAreRefused() {
        // Japanese kana-sensitive: a fourth level, not among the 0900 collations modelled.
        assertThatThrownBy(() -> mySqlCollations.load("utf8mb4", "utf8mb4_ja_0900_as_cs_ks"))
                .hasMessageContaining("the server weighs 'ab'");
        assertThatThrownBy(() -> mySqlCollations.load("gbk", "gbk_chinese_ci"))
                .hasMessageContaining("not known to be its characters' weights");
    }

    @Test
    void theSourceCheckNamesAStringChunkKeyOfARefusedCollationBeforeTheSnapshot() {
        String checked = mariaDb.createDatabase("collationcheck", null);
        mariaDb.execute(
                checked,
                "CREATE TABLE czech (k VARCHAR(10) COLLATE utf8mb4_uca1400_czech_as_cs PRIMARY"
                        + " KEY)",
                "CREATE TABLE plain (k VARCHAR(10) COLLATE utf8mb4_general_ci PRIMARY KEY)",
                "CREATE TABLE uca (k VARCHAR(10) COLLATE utf8mb4_uca1400_ai_ci PRIMARY KEY)",
                "CREATE TABLE ids (id INT PRIMARY KEY, k VARCHAR(10) COLLATE"
                        + " utf8mb4_uca1400_czech_as_cs)",
                "CREATE TABLE keyed (id INT PRIMARY KEY, k VARCHAR(10) COLLATE"
                        + " utf8mb4_uca1400_czech_as_cs)");
        Configuration options = new Configuration();
        options.set(MySqlSourceOptions.HOSTNAME, mariaDb.host());
        options.set(MySqlSourceOptions.PORT, mariaDb.port());
        options.set(MySqlSourceOptions.USERNAME, mariaDb.cdcUser());
        options.set(MySqlSourceOptions.PASSWORD, mariaDb.cdcPassword());
        options.set(MySqlSourceOptions.TABLES, List.of(checked + "\\..*"));
        options.set(MySqlSourceOptions.STARTUP_MODE, StartupMode.INITIAL);
        options.set(MySqlSourceOptions.READER, SourceReaderKind.SLUICE);
        options.set(MySqlSourceOptions.SNAPSHOT_CHUNK_KEY_COLUMNS, Map.of(checked + ".keyed", "k"));
        List<String> problems =
                MySqlSourceFactory.serverCheck(OptionSection.unprefixed(options)).problems(true);
        assertThat(problems)
                .as(
                        "the tables chunked by a multi-level czech column: by its primary key, by"
                                + " the option; not the uca1400_ai_ci one")
                .hasSize(2)
                .anySatisfy(
                        problem ->
                                assertThat(problem)
                                        .contains(
                                                "string chunk keys of "
                                                        + checked
                                                        + ".czech in their column's collation")
                                        .contains(
                                                "column 'k' (collation"
                                                        + " utf8mb4_uca1400_czech_as_cs)"))
                .anySatisfy(
                        problem ->
                                assertThat(problem)
                                        .contains("string chunk keys of " + checked + ".keyed"));
        options.set(MySqlSourceOptions.READER, SourceReaderKind.FLINK_CDC);
        assertThat(MySqlSourceFactory.serverCheck(OptionSection.unprefixed(options)).problems(true))
                .as("Flink CDC's reader compares no chunk keys of its own")
                .isEmpty();
    }

    /** A table of the strings the charset holds, column s in the collation, row i the index. */
    private static String table(
            DatabaseServer server, String database, String charset, String collation)
            throws SQLException {
        String table = "t_" + collation.toLowerCase(Locale.ROOT);
        server.execute(
                database,
                String.format(
                        "CREATE TABLE %s (i INT PRIMARY KEY, s VARCHAR(20) CHARACTER SET %s"
                                + " COLLATE %s NOT NULL)",
                        table, charset, collation));
        Charset latin1 = Charset.forName("windows-1252");
        try (Connection connection = server.connect(database);
                PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
            int i = 0;
            for (String value : STRINGS) {
                boolean held =
                        charset.startsWith("latin1")
                                ? latin1.newEncoder().canEncode(value)
                                : !charset.equals("utf8mb3")
                                        || value.codePoints().allMatch(cp -> cp < 0x10000);
                if (held) {
                    insert.setInt(1, i++);
                    insert.setString(2, value);
                    insert.addBatch();
                }
            }
            insert.executeBatch();
        }
        return table;
    }
}
