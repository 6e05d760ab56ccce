package io.sluice.job.canal;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** canal-diff's documented differences are the documentation's table, row for row. */
class DeliberateDifferenceTest {

    private static final String SECTION = "## Where Sluice differs from Canal, on purpose";

    @Test
    void mirrorsTheDocumentedTable() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("../docs/canal-compatibility.md"));
        List<String> rows = new ArrayList<>();
        boolean inSection = false;
        for (String line : lines) {
            if (line.startsWith("## ")) {
                inSection = line.equals(SECTION);
            } else if (inSection && line.startsWith("| ") && !line.startsWith("| |")) {
                rows.add(line.split("\\|")[1].trim());
            }
        }
        assertThat(rows)
                .containsExactlyElementsOf(
                        Arrays.stream(DeliberateDifference.values())
                                .map(d -> d.docRow())
                                .collect(Collectors.toList()));
    }

    @Test
    void classifiesValues() {
        assertThat(ValueDifferences.valueDifference("decimal(10,2)", "10.0", "10.00"))
                .isEqualTo(DeliberateDifference.DECIMAL_SCALE);
        assertThat(ValueDifferences.valueDifference("decimal(10,2)", "10.1", "10.00")).isNull();
        assertThat(ValueDifferences.valueDifference("varchar(16)", "caf\ufffd", "café"))
                .isEqualTo(DeliberateDifference.LATIN1_TEXT);
        assertThat(ValueDifferences.valueDifference("varchar(16)", "cafe", "café")).isNull();
        assertThat(
                        ValueDifferences.valueDifference(
                                "timestamp", "2024-03-01 20:00:00", "2024-03-01 12:00:00"))
                .isEqualTo(DeliberateDifference.TIMESTAMP_ZONE);
        assertThat(
                        ValueDifferences.valueDifference(
                                "timestamp", "2024-03-01 20:00:07", "2024-03-01 12:00:00"))
                .isNull();
        assertThat(
                        ValueDifferences.valueDifference(
                                "datetime", "2024-03-01 20:00:00", "2024-03-01 12:00:00"))
                .isNull();
        assertThat(ValueDifferences.valueDifference("binary(4)", "ab", "ab\0\0"))
                .isEqualTo(DeliberateDifference.BINARY_PADDING);
        assertThat(ValueDifferences.valueDifference("binary(4)", "ab", "abc\0")).isNull();
    }

    @Test
    void classifiesMariaDbUuidAndInetTexts() {
        // Canal: the binlog's bytes as characters (trailing zero bytes dropped); Sluice: the
        // text SELECT shows.
        assertThat(
                        ValueDifferences.valueDifference(
                                "uuid",
                                "\u0012>Eg\u00e8\u009b\u0012\u00d3\u00a4VBf\u0014\u0017@",
                                "123e4567-e89b-12d3-a456-426614174000"))
                .isEqualTo(DeliberateDifference.MARIADB_UUID_INET);
        assertThat(
                        ValueDifferences.valueDifference(
                                "inet4", "\u00c0\u0000\u0002\u0001", "192.0.2.1"))
                .isEqualTo(DeliberateDifference.MARIADB_UUID_INET);
        assertThat(ValueDifferences.valueDifference("inet4", "\n", "10.0.0.0"))
                .isEqualTo(DeliberateDifference.MARIADB_UUID_INET);
        assertThat(ValueDifferences.valueDifference("inet6", "", "::"))
                .isEqualTo(DeliberateDifference.MARIADB_UUID_INET);
        assertThat(
                        ValueDifferences.valueDifference(
                                "inet6",
                                "\0\0\0\0\0\0\0\0\0\0\u00ff\u00ff\u00c0\0\u0002\u0080",
                                "::ffff:192.0.2.128"))
                .isEqualTo(DeliberateDifference.MARIADB_UUID_INET);
        assertThat(
                        ValueDifferences.valueDifference(
                                "inet4", "\u00c0\u0000\u0002\u0002", "192.0.2.1"))
                .isNull();
    }

    @Test
    void classifiesMySqlJsonTexts() {
        // As Canal 1.1.7 and Sluice wrote them side by side (canal/side_by_side_json.sql).
        assertThat(
                        ValueDifferences.valueDifference(
                                "json",
                                "{\"ff\": \"\ufffd\", \"utf8\": \"é\", \"ascii\": \"ab\","
                                        + " \"zero_ff\": \"\"}",
                                "{\"ff\": \"/w==\", \"utf8\": \"w6k=\", \"ascii\": \"YWI=\","
                                        + " \"zero_ff\": \"AP8=\"}"))
                .isEqualTo(DeliberateDifference.JSON_TEXT);
        assertThat(
                        ValueDifferences.valueDifference(
                                "json",
                                "{\"nul\": \"a\", \"key\ttab\": \"\\n\", \"key\"quote\": 2}",
                                "{\"nul\": \"a\\u0000b\", \"key\\ttab\": \"\\n\","
                                        + " \"key\\\"quote\": 2}"))
                .isEqualTo(DeliberateDifference.JSON_TEXT);
        assertThat(
                        ValueDifferences.valueDifference(
                                "json", "[1.50, 10.0, -0.001]", "[1.50, 10.00, -0.001]"))
                .isEqualTo(DeliberateDifference.DECIMAL_SCALE);
        // Anything else is a difference of its own.
        assertThat(ValueDifferences.valueDifference("json", "[1.50, 10.1]", "[1.50, 10.00]"))
                .isNull();
        assertThat(ValueDifferences.valueDifference("json", "{\"a\": \"ab\"}", "{\"a\": \"abc\"}"))
                .isNull();
        assertThat(
                        ValueDifferences.valueDifference(
                                "json", "{\"a\": \"abc\"}", "{\"a\": \"YWI=\"}"))
                .isNull();
        assertThat(ValueDifferences.valueDifference("json", "\"12:34:56.000000\"", "\"12:34:56\""))
                .isNull();
        assertThat(ValueDifferences.valueDifference("json", "{\"a\": 1}", "{\"b\": 1}")).isNull();
    }

    @Test
    void classifiesGtidsAndRowOffsets() {
        String uuid = "57f1e4a4-f231-11f1-ac17-02fc00000001";
        assertThat(ValueDifferences.mySqlGtid("", uuid + ":27")).isTrue();
        assertThat(ValueDifferences.mySqlGtid(uuid + ":1-27", uuid + ":27")).isTrue();
        assertThat(ValueDifferences.mySqlGtid("", "0-1-7")).isFalse();
        assertThat(ValueDifferences.mySqlGtid("other:1-27", uuid + ":27")).isFalse();
        assertThat(ValueDifferences.mySqlGtid("", "")).isFalse();
        // MariaDB's negative offset, MySQL's rows event after the transaction's start.
        assertThat(ValueDifferences.rowOffset("-120", "4000")).isTrue();
        assertThat(ValueDifferences.rowOffset("9761", "9537")).isTrue();
        assertThat(ValueDifferences.rowOffset("9537", "9761")).isFalse();
        assertThat(ValueDifferences.rowOffset("9537", "9537x")).isFalse();
    }

    @Test
    void unsignedWideningIsTheDocumentedSqlType() throws IOException {
        // Canal moves an unsigned value beyond the signed range one size up; Sluice keeps the type.
        assertThat(sqlTypeDifference("tinyint(3) unsigned", 5, -6)).isZero();
        assertThat(sqlTypeDifference("smallint(5) unsigned", 4, 5)).isZero();
        assertThat(sqlTypeDifference("int(10) unsigned", -5, 4)).isZero();
        assertThat(sqlTypeDifference("bigint(20) unsigned", 3, -5)).isZero();
        // The same codes on a signed column are a real difference.
        assertThat(sqlTypeDifference("int(11)", -5, 4)).isEqualTo(1);
    }

    /** The undocumented differences of one row whose column c has these sqlTypes. */
    private static long sqlTypeDifference(String mysqlType, int canal, int sluice)
            throws IOException {
        DiffReport report = new DiffReport();
        RowComparison.compareValues(row(mysqlType, canal), row(mysqlType, sluice), report);
        return report.undocumented();
    }

    private static FlatRow row(String mysqlType, int sqlType) throws IOException {
        String json =
                "{\"database\":\"d\",\"table\":\"t\",\"type\":\"INSERT\",\"isDdl\":false,"
                        + "\"data\":[{\"c\":\"4294967295\"}],\"old\":null,"
                        + "\"sqlType\":{\"c\":"
                        + sqlType
                        + "},\"mysqlType\":{\"c\":\""
                        + mysqlType
                        + "\"}}";
        return FlatRow.of("topic", 0, 0, false, new ObjectMapper().readTree(json)).get(0);
    }
}
