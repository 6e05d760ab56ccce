package io.sluice.serializers.canal;

import com.alibaba.fastjson2.JSON;
import com.alibaba.otter.canal.protocol.CanalEntry.Header;
import com.alibaba.otter.canal.protocol.CanalEntry.RowChange;
import com.alibaba.otter.canal.protocol.FlatMessage;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.serializers.bench.BenchmarkRows;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Judges {@link CanalFlatEncoder} by Canal's own classes. For the same changes, Canal's own
 * converter ({@code MQMessageUtils.messageConverter} of {@code connector.core}, run by {@link
 * CanalFlatPath}) builds the FlatMessage from a Canal protobuf entry, taken two ways: the packet
 * {@link CanalBinaryEncoder} writes, read back by Canal's consumer; and the packet Canal's own
 * builders make ({@link CanalLogEventPackets}), which no Sluice encoder touches. Our bytes are
 * parsed as Canal's Kafka client parses them ({@code JSON.parseObject(bytes, FlatMessage.class)},
 * fastjson2) and compared field by field with Canal's FlatMessage, then byte for byte with
 * fastjson2's serialization of it, as Canal's producers write it.
 *
 * <p>Where Sluice differs from Canal on purpose, a test below names the difference and shows that
 * it is the only one: {@code old} in multi-row UPDATEs, {@code database} of a DML statement's
 * QUERY, and {@code sqlType} fixed by the declared type. The other differences listed in
 * docs/canal-compatibility.md happen before encoding (value text, routing, keys, message ids).
 */
class CanalFlatEncoderTest {

    private static final long ID = 42;
    private static final long TS = 1_700_000_000_456L;
    private static final long ES = 1_700_000_000_000L;
    private static final String GTID = "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-77";

    private static final TableSchema ORDERS =
            orders(); // a second, equal instance is built where identity matters

    private static final TableSchema LOG =
            TableSchema.builder("shop", "log")
                    .column("at", "datetime(3)", Types.TIMESTAMP, false)
                    .column("line", "varchar(255)", Types.VARCHAR, false)
                    .build();

    private final CanalFlatEncoder encoder = new CanalFlatEncoder();
    private final CanalBinaryEncoder binary = new CanalBinaryEncoder();

    // ---- rows that Canal and Sluice encode identically: byte-for-byte equality ----

    @Test
    void insertIsByteForByteCanal() {
        ChangeEvent insert = insert(ORDERS, row("1", "pen", "10.50", "blue ink", "ab"));

        FlatMessage flat = assertSameAsCanal(List.of(insert));

        assertThat(flat.getType()).isEqualTo("INSERT");
        assertThat(flat.getIsDdl()).isFalse();
        assertThat(flat.getData()).containsExactly(orderMap("1", "pen", "10.50", "blue ink", "ab"));
        assertThat(flat.getOld()).isNull();
        assertThat(flat.getPkNames()).containsExactly("id");
        assertThat(flat.getSql()).isEmpty();
        assertThat(flat.getEs()).isEqualTo(ES);
        assertThat(flat.getTs()).isEqualTo(TS);
        assertThat(flat.getId()).isEqualTo(ID);
        assertThat(flat.getGtid()).isEqualTo(GTID);
        assertThat(flat.getDatabase()).isEqualTo("shop");
        assertThat(flat.getTable()).isEqualTo("orders");
        // fastjson2 reads the maps into HashMaps, so only the bytes prove the column order.
        assertThat(flat.getSqlType())
                .containsOnly(
                        Map.entry("id", Types.BIGINT),
                        Map.entry("name", Types.VARCHAR),
                        Map.entry("amount", Types.DECIMAL),
                        Map.entry("note", Types.CLOB),
                        Map.entry("bin", Types.BLOB));
        assertThat(flat.getMysqlType())
                .containsOnly(
                        Map.entry("id", "bigint(20)"),
                        Map.entry("name", "varchar(64)"),
                        Map.entry("amount", "decimal(10,2)"),
                        Map.entry("note", "text"),
                        Map.entry("bin", "varbinary(16)"));
    }

    @Test
    void updateHasTheAfterImageInDataAndOnlyChangedColumnsInOld() {
        ChangeEvent update =
                update(
                        ORDERS,
                        row("1", "pen", "9.50", "blue ink", "ab"),
                        row("1", "pen", "10.0", "red ink", "ab"));

        FlatMessage flat = assertSameAsCanal(List.of(update));

        assertThat(flat.getData()).containsExactly(orderMap("1", "pen", "10.0", "red ink", "ab"));
        assertThat(flat.getOld()).containsExactly(Map.of("amount", "9.50", "note", "blue ink"));
        assertThat(new String(encode(update), StandardCharsets.UTF_8))
                .contains("\"old\":[{\"amount\":\"9.50\",\"note\":\"blue ink\"}]");
    }

    @Test
    void updateThatChangesNothingHasAnEmptyOldRow() {
        RowImage same = row("1", "pen", "9.50", null, "ab");

        FlatMessage flat = assertSameAsCanal(List.of(update(ORDERS, same, same)));

        assertThat(flat.getOld()).containsExactly(Map.of());
    }

    @Test
    void deleteHasTheBeforeImageInData() {
        ChangeEvent delete = delete(ORDERS, row("7", "ink", "1.25", null, ""));

        FlatMessage flat = assertSameAsCanal(List.of(delete));

        assertThat(flat.getType()).isEqualTo("DELETE");
        assertThat(flat.getData()).containsExactly(orderMap("7", "ink", "1.25", null, ""));
        assertThat(flat.getOld()).isNull();
    }

    @Test
    void threeRowInsertAndDeleteMessagesKeepRowOrder() {
        List<ChangeEvent> inserts =
                List.of(
                        insert(ORDERS, row("1", "a", "1.0", null, "x")),
                        insert(ORDERS, row("2", "b", "2.0", "n", null)),
                        insert(ORDERS, row("3", "c", "3.0", "", "z")));
        List<ChangeEvent> deletes =
                List.of(
                        delete(ORDERS, row("1", "a", "1.0", null, "x")),
                        delete(ORDERS, row("2", "b", "2.0", "n", null)),
                        delete(ORDERS, row("3", "c", "3.0", "", "z")));

        assertThat(assertSameAsCanal(inserts).getData())
                .extracting(r -> r.get("id"))
                .containsExactly("1", "2", "3");
        assertThat(assertSameAsCanal(deletes).getData())
                .extracting(r -> r.get("id"))
                .containsExactly("1", "2", "3");
    }

    @Test
    void threeRowUpdateChangingTheSameColumnsInEveryRowIsByteForByteCanal() {
        // Canal's accumulated updated-column set changes nothing when every row changes the same
        // columns, so here both agree exactly.
        List<ChangeEvent> updates =
                List.of(
                        update(
                                ORDERS,
                                row("1", "a", "1.0", null, "x"),
                                row("1", "a", "1.5", null, "x")),
                        update(
                                ORDERS,
                                row("2", "b", "2.0", "n", null),
                                row("2", "b", "2.5", "n", null)),
                        update(
                                ORDERS,
                                row("3", "c", "3.0", "", "z"),
                                row("3", "c", "3.5", "", "z")));

        FlatMessage flat = assertSameAsCanal(updates);

        assertThat(flat.getOld())
                .containsExactly(
                        Map.of("amount", "1.0"), Map.of("amount", "2.0"), Map.of("amount", "3.0"));
    }

    @Test
    void nullsAreWrittenInDataAndOld() {
        ChangeEvent update =
                update(
                        ORDERS,
                        row("1", null, "1.00", "was set", null),
                        row("1", "now set", "1.00", null, null));

        FlatMessage flat = assertSameAsCanal(List.of(update));

        Map<String, String> old = new LinkedHashMap<>();
        old.put("name", null);
        old.put("note", "was set");
        assertThat(flat.getOld()).containsExactly(old);
        assertThat(flat.getData()).containsExactly(orderMap("1", "now set", "1.00", null, null));
        String json = new String(encode(update), StandardCharsets.UTF_8);
        assertThat(json)
                .contains("\"old\":[{\"name\":null,\"note\":\"was set\"}]")
                .contains("\"note\":null,\"bin\":null}");
    }

    @Test
    void tableWithoutPrimaryKeyHasNullPkNames() {
        ChangeEvent insert = insert(LOG, row("2024-01-02 03:04:05.120", "started"));

        FlatMessage flat = assertSameAsCanal(List.of(insert));

        assertThat(flat.getPkNames()).isNull();
        assertThat(new String(encode(insert), StandardCharsets.UTF_8)).contains("\"pkNames\":null");
    }

    @Test
    void compositePrimaryKeyListsKeyColumnsInColumnOrder() {
        TableSchema lines =
                TableSchema.builder("shop", "order_lines")
                        .column("qty", "int(11)", Types.INTEGER, false)
                        .column("order_id", "bigint(20)", Types.BIGINT, true)
                        .column("line_no", "int(11)", Types.INTEGER, true)
                        .build();

        FlatMessage flat = assertSameAsCanal(List.of(insert(lines, row("3", "1", "2"))));

        assertThat(flat.getPkNames()).containsExactly("order_id", "line_no");
    }

    // ---- strings: escaping and encodings ----

    @Test
    void unicodeControlCharactersAndBinaryRoundTripThroughCanalsParser() {
        byte[] allBytes = new byte[256];
        for (int i = 0; i < allBytes.length; i++) {
            allBytes[i] = (byte) i;
        }
        StringBuilder controls = new StringBuilder();
        for (char c = 0; c < 0x20; c++) {
            controls.append(c);
        }
        String name = "quote\" backslash\\ slash/ del\u007f " + controls;
        String note = "emoji 😀🚀👩‍💻 CJK 中文字符 日本語 한국어 ½ é U+2028\u2028 BOM\uFEFF max\uFFFF";
        RowImage row =
                new RowImage.Builder()
                        .append("1")
                        .append(name)
                        .append("10.0")
                        .append(note)
                        .appendLatin1(allBytes, 0, allBytes.length) // as Canal renders binary
                        .build();
        ChangeEvent insert = insert(ORDERS, row);

        // fastjson2 escapes exactly the characters Jackson escapes here, in the same way
        // (\b \t \n \f \r, else lower-case backslash-u00xx), so even this is byte for byte.
        FlatMessage flat = assertSameAsCanal(List.of(insert));

        Map<String, String> data = flat.getData().get(0);
        assertThat(data.get("name")).isEqualTo(name);
        assertThat(data.get("note")).isEqualTo(note);
        assertThat(data.get("bin")).isEqualTo(new String(allBytes, StandardCharsets.ISO_8859_1));
        String json = new String(encode(insert), StandardCharsets.UTF_8);
        assertThat(json)
                .contains("\\u0000\\u0001")
                .contains("\\b\\t\\n\\u000b\\f\\r")
                .contains("quote\\\" backslash\\\\ slash/")
                .contains("😀🚀")
                .doesNotContain("\\u00e9");
    }

    /**
     * MySQL identifiers are limited to the Basic Multilingual Plane, so no emoji here; that is as
     * well, because fastjson2 2.0.31 cannot parse 4-byte UTF-8 in object keys from bytes
     * ("malformed input"), not even its own output.
     */
    @Test
    void unusualColumnNamesAreEscapedLikeCanal() {
        TableSchema odd =
                TableSchema.builder("db \"x\"", "t\\1")
                        .column("we\"ird", "int(11)", Types.INTEGER, true)
                        .column("back\\slash", "varchar(8)", Types.VARCHAR, false)
                        .column("列名", "varchar(8)", Types.VARCHAR, false)
                        .column("naïve½", "varchar(8)", Types.VARCHAR, false)
                        .column("tab\tname", "varchar(8)", Types.VARCHAR, false)
                        .build();

        FlatMessage flat = assertSameAsCanal(List.of(insert(odd, row("1", "a", "b", "c", "d"))));

        assertThat(flat.getData().get(0))
                .containsOnlyKeys("we\"ird", "back\\slash", "列名", "naïve½", "tab\tname");
        assertThat(flat.getPkNames()).containsExactly("we\"ird");
        assertThat(flat.getDatabase()).isEqualTo("db \"x\"");
    }

    // ---- statements ----

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "CREATE   | CREATE TABLE `orders` (id bigint primary key, note text)",
                "ALTER    | ALTER TABLE orders ADD COLUMN qty int(11) NOT NULL DEFAULT 1",
                "ERASE    | DROP TABLE `orders`",
                "TRUNCATE | TRUNCATE TABLE orders",
                "RENAME   | RENAME TABLE orders_old TO orders",
                "QUERY    | CREATE DATABASE shop",
                "CINDEX   | CREATE INDEX ix_note ON orders (note(10))",
                "DINDEX   | DROP INDEX ix_note ON orders",
            })
    void statementsCarryTheirSqlAndNoRows(ChangeType type, String sql) {
        ChangeEvent ddl = statement(type, ORDERS, sql + " -- \"quoted\" 'x'\n\t中文");

        FlatMessage flat = assertSameAsCanal(List.of(ddl));

        assertThat(flat.getType()).isEqualTo(type.name());
        assertThat(flat.getIsDdl()).isTrue();
        assertThat(flat.getSql()).isEqualTo(sql + " -- \"quoted\" 'x'\n\t中文");
        assertThat(flat.getDatabase()).isEqualTo("shop");
        assertThat(flat.getTable()).isEqualTo("orders");
        assertThat(flat.getData()).isNull();
        assertThat(flat.getOld()).isNull();
        assertThat(flat.getPkNames()).isNull();
        assertThat(flat.getSqlType()).isNull();
        assertThat(flat.getMysqlType()).isNull();
    }

    @Test
    void statementWithoutTableHasEmptyNames() {
        TableSchema none = TableSchema.builder("", "").build();

        FlatMessage flat =
                assertSameAsCanal(List.of(statement(ChangeType.QUERY, none, "GRANT ALL ON *.*")));

        assertThat(flat.getDatabase()).isEmpty();
        assertThat(flat.getTable()).isEmpty();
    }

    @Test
    void queryOfADmlStatementIsANonDdlQueryMessageAsCanalWrites() {
        String sql = "INSERT INTO orders (id, name) VALUES (1, 'pen \\\"x\\\"') -- 中文\n";
        ChangeEvent first =
                change(ORDERS, ChangeType.INSERT)
                        .after(row("1", "pen", null, null, null))
                        .query(sql)
                        .build();

        FlatMessage flat = assertSameAsCanal(List.of(ChangeEvent.queryOf(first)));

        assertThat(flat.getType()).isEqualTo("QUERY");
        assertThat(flat.getIsDdl()).isFalse();
        assertThat(flat.getSql()).isEqualTo(sql);
        assertThat(flat.getDatabase()).isEqualTo("shop");
        assertThat(flat.getTable()).isEqualTo("orders");
        assertThat(flat.getEs()).isEqualTo(ES);
        assertThat(flat.getGtid()).isEqualTo(GTID);
        assertThat(flat.getId()).isEqualTo(ID);
        assertThat(flat.getData()).isNull();
        assertThat(flat.getOld()).isNull();
        assertThat(flat.getPkNames()).isNull();
        assertThat(flat.getSqlType()).isNull();
        assertThat(flat.getMysqlType()).isNull();
        // The row itself is unchanged by the query it carries.
        assertThat(encoder.encode(List.of(first), ID, TS))
                .isEqualTo(
                        encoder.encode(
                                List.of(insert(ORDERS, row("1", "pen", null, null, null))),
                                ID,
                                TS));
    }

    @Test
    void queryIsEncodedAlone() {
        ChangeEvent first =
                change(ORDERS, ChangeType.INSERT)
                        .after(row("1", "pen", null, null, null))
                        .query("INSERT INTO orders (id) VALUES (1)")
                        .build();
        ChangeEvent query = ChangeEvent.queryOf(first);

        assertThatThrownBy(() -> encoder.encode(List.of(query, first), ID, TS))
                .hasMessageContaining("A statement (DDL or QUERY) is encoded alone");
    }

    // ---- where Sluice deliberately differs from Canal ----

    @Test
    void multiRowUpdateOldHoldsOnlyEachRowsOwnChangesUnlikeCanal() {
        List<ChangeEvent> updates =
                List.of(
                        update(
                                ORDERS,
                                row("1", "a", "1.0", "n", "x"),
                                row("1", "a", "1.5", "n", "x")),
                        update(
                                ORDERS,
                                row("2", "b", "2.0", "n", "y"),
                                row("2", "B", "2.0", "n", "y")),
                        update(
                                ORDERS,
                                row("3", "c", "3.0", "n", "z"),
                                row("3", "c", "3.0", null, "z")));
        byte[] ours = encoder.encode(updates, ID, TS);
        List<Map<String, String>> sluiceOld =
                List.of(singleton("amount", "1.0"), singleton("name", "b"), singleton("note", "n"));

        // Sluice: each row's old holds what changed in that row.
        assertThat(parse(ours).getOld()).isEqualTo(sluiceOld);
        // Canal collects the updated columns once per message, so later rows repeat earlier
        // rows' columns even where they did not change ("amount" of row 2 is 2.0 before and
        // after). That is the one difference: with Sluice's old in its place, Canal's message is
        // ours, byte for byte.
        for (FlatMessage canal :
                List.of(
                        canalFlat(binary.encode(updates, ID, TS)),
                        canalFlat(CanalLogEventPackets.packet(updates, ID)))) {
            assertThat(canal.getOld())
                    .containsExactly(
                            Map.of("amount", "1.0"),
                            Map.of("name", "b", "amount", "2.0"),
                            Map.of("name", "c", "amount", "3.0", "note", "n"));
            canal.setOld(sluiceOld);
            assertSameFlat(ours, canal, "Canal's converter, with Sluice's old");
        }
    }

    @Test
    void queryOfADmlStatementNamesItsRowsDatabaseWhereCanalWritesEmpty() {
        ChangeEvent first =
                change(ORDERS, ChangeType.UPDATE)
                        .before(row("1", "pen", "1.00", null, null))
                        .after(row("1", "pen", "2.00", null, null))
                        .query("UPDATE orders SET amount = 2 WHERE id = 1")
                        .build();
        List<ChangeEvent> query = List.of(ChangeEvent.queryOf(first));
        // Canal's buildQueryEntry passes "" as the header's schema name: its DDL parser finds only
        // the table of a DML statement.
        Header canalHeader =
                CanalLogEventPackets.header(query).toBuilder().setSchemaName("").build();
        byte[] ours = encoder.encode(query, ID, TS);

        FlatMessage canal =
                canalFlat(
                        CanalPacketFraming.packet(
                                canalHeader, CanalLogEventPackets.rowChange(query), ID));

        assertThat(canal.getDatabase()).isEmpty();
        assertThat(parse(ours).getDatabase()).isEqualTo("shop");
        canal.setDatabase("shop");
        assertSameFlat(ours, canal, "Canal's converter, with Sluice's database");
    }

    @Test
    void sqlTypeIsTheDeclaredTypeWhereCanalTakesTheLastRowsValueType() {
        TableSchema counters =
                TableSchema.builder("shop", "counters")
                        .column("id", "bigint(20) unsigned", Types.BIGINT, true)
                        .column("hits", "int(11)", Types.INTEGER, false)
                        .build();
        List<ChangeEvent> inserts =
                List.of(
                        insert(counters, row("1", "5")),
                        insert(counters, row("18446744073709551615", "6")));
        // Canal's LogEventConvert reports a BIGINT UNSIGNED value of 2^63 or more as DECIMAL (3),
        // and messageConverter keeps the last row's sqlType per column.
        RowChange.Builder canalRows = CanalLogEventPackets.rowChange(inserts).toBuilder();
        canalRows.getRowDatasBuilder(1).getAfterColumnsBuilder(0).setSqlType(Types.DECIMAL);
        byte[] ours = encoder.encode(inserts, ID, TS);

        FlatMessage canal =
                canalFlat(
                        CanalPacketFraming.packet(
                                CanalLogEventPackets.header(inserts), canalRows.build(), ID));

        assertThat(canal.getSqlType()).containsEntry("id", Types.DECIMAL);
        assertThat(parse(ours).getSqlType()).containsEntry("id", Types.BIGINT);
        canal.getSqlType().put("id", Types.BIGINT); // keeps the key's place in the map
        assertSameFlat(ours, canal, "Canal's converter, with Sluice's sqlType");
    }

    @Test
    void rowsOfSeveralEventsTakeEsAndGtidFromTheFirst() {
        // Canal's rows of one message share one binlog event's header. The encoder accepts rows
        // of several events (the job itself encodes one change per message); the first change's
        // es and gtid stand for them all, as the binary encoder's header does.
        List<ChangeEvent> inserts =
                List.of(
                        insert(ORDERS, row("1", "a", "1.0", "n", "x")),
                        change(ORDERS, ChangeType.INSERT)
                                .after(row("2", "b", "2.0", "n", "y"))
                                .executeTime(ES + 5)
                                .gtid(GTID + ":78")
                                .build());

        FlatMessage flat = assertSameAsCanal(inserts);

        assertThat(flat.getEs()).isEqualTo(ES);
        assertThat(flat.getGtid()).isEqualTo(GTID);
    }

    @Test
    void benchmarkRowsAreCanalsFlatMessages() {
        // Every column type of the benchmarks, NULLs included, one row per message as the job
        // writes them, then ten rows of one type per message.
        Map<ChangeType, List<ChangeEvent>> byType = new EnumMap<>(ChangeType.class);
        for (ChangeEvent change : BenchmarkRows.mixedDml(300, 42)) {
            assertSameAsCanal(List.of(change));
            byType.computeIfAbsent(change.type(), t -> new ArrayList<>()).add(change);
        }
        assertSameAsCanal(byType.get(ChangeType.INSERT).subList(0, 10));
        assertSameAsCanal(byType.get(ChangeType.DELETE).subList(0, 10));
        List<ChangeEvent> wide = BenchmarkRows.wideInserts(20, 42);
        assertSameAsCanal(wide.subList(0, 1));
        assertSameAsCanal(wide.subList(0, 10));
    }

    // ---- layout ----

    @Test
    void topLevelKeysAreCompactAndInCanalsAlphabeticalOrder() throws IOException {
        byte[] ours =
                encode(
                        update(
                                ORDERS,
                                row("1", "a", "1.0", "n", "x"),
                                row("1", "a", "2.0", "n", "x")));

        List<String> keys = new ArrayList<>();
        try (JsonParser parser = new JsonFactory().createParser(ours)) {
            assertThat(parser.nextToken()).isEqualTo(JsonToken.START_OBJECT);
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                keys.add(parser.currentName());
                parser.nextToken();
                parser.skipChildren();
            }
            assertThat(parser.currentToken()).isEqualTo(JsonToken.END_OBJECT);
            assertThat(parser.nextToken()).isNull();
        }
        assertThat(keys)
                .containsExactly(
                        "data",
                        "database",
                        "es",
                        "gtid",
                        "id",
                        "isDdl",
                        "mysqlType",
                        "old",
                        "pkNames",
                        "sql",
                        "sqlType",
                        "table",
                        "ts",
                        "type");
        String json = new String(ours, StandardCharsets.UTF_8);
        assertThat(json).doesNotContain(" ", "\n", "\t").startsWith("{\"data\":[{\"id\":\"1\",");
        assertThat(json).endsWith("\"table\":\"orders\",\"ts\":" + TS + ",\"type\":\"UPDATE\"}");
    }

    // ---- buffer reuse and schema cache ----

    @Test
    void reusedBufferNeverCorruptsEarlierResults() {
        ChangeEvent small = insert(ORDERS, row("1", "a", "1.0", "n", "x"));
        String longNote = "x".repeat(20_000); // larger than the initial buffer and Jackson's own
        List<ChangeEvent> large =
                List.of(
                        insert(ORDERS, row("2", "b", "2.0", longNote, "y")),
                        insert(ORDERS, row("3", "c", "3.0", longNote, "z")));

        byte[] first = encoder.encode(List.of(small), ID, TS);
        byte[] firstCopy = first.clone();
        byte[] second = encoder.encode(large, ID + 1, TS);
        byte[] third = encoder.encode(List.of(small), ID + 2, TS);

        assertThat(first).isEqualTo(firstCopy).isNotSameAs(third);
        assertSameFlat(
                first, canalFlat(binary.encode(List.of(small), ID, TS)), "Canal on the first");
        assertSameFlat(second, canalFlat(binary.encode(large, ID + 1, TS)), "Canal on the second");
        assertSameFlat(
                third, canalFlat(binary.encode(List.of(small), ID + 2, TS)), "Canal on the third");
    }

    @Test
    void manyTablesInTurnAndEqualSchemaInstancesEncodeCorrectly() {
        List<TableSchema> tables = new ArrayList<>();
        for (int t = 0; t < 12; t++) { // more tables than the encoder caches
            tables.add(
                    TableSchema.builder("db", "t" + t)
                            .column("k" + t, "int(11)", Types.INTEGER, true)
                            .column("v", "varchar(8)", Types.VARCHAR, false)
                            .build());
        }
        for (int round = 0; round < 3; round++) {
            for (TableSchema table : tables) {
                assertSameAsCanal(List.of(insert(table, row(String.valueOf(round), "v"))));
            }
        }
        TableSchema equalOrders = orders();
        assertThat(equalOrders).isNotSameAs(ORDERS).isEqualTo(ORDERS);
        assertSameAsCanal(
                List.of(
                        insert(ORDERS, row("1", "a", "1.0", "n", "x")),
                        insert(equalOrders, row("2", "b", "2.0", "n", "y"))));
        assertSameAsCanal(List.of(insert(equalOrders, row("3", "c", "3.0", "n", "z"))));
    }

    // ---- misuse ----

    @Test
    void changesOfTwoTablesAreRejectedNamingBoth() {
        List<ChangeEvent> mixed =
                List.of(
                        insert(ORDERS, row("1", "a", "1.0", "n", "x")),
                        insert(LOG, row("2024-01-01 00:00:00.000", "x")));

        assertThatThrownBy(() -> encoder.encode(mixed, ID, TS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shop.orders")
                .hasMessageContaining("shop.log")
                .hasMessageContaining("change 1");
    }

    @Test
    void twoVersionsOfOneTableAreRejectedShowingBothSchemas() {
        TableSchema wider =
                TableSchema.builder("shop", "log")
                        .column("at", "datetime(3)", Types.TIMESTAMP, false)
                        .column("line", "varchar(255)", Types.VARCHAR, false)
                        .column("level", "int(11)", Types.INTEGER, false)
                        .build();
        List<ChangeEvent> mixed =
                List.of(insert(LOG, row("a", "b")), insert(wider, row("a", "b", "1")));

        assertThatThrownBy(() -> encoder.encode(mixed, ID, TS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shop.log")
                .hasMessageContaining("level int(11)");
    }

    @Test
    void changesOfTwoTypesAreRejectedNamingBoth() {
        List<ChangeEvent> mixed =
                List.of(
                        insert(ORDERS, row("1", "a", "1.0", "n", "x")),
                        insert(ORDERS, row("2", "a", "1.0", "n", "x")),
                        delete(ORDERS, row("1", "a", "1.0", "n", "x")));

        assertThatThrownBy(() -> encoder.encode(mixed, ID, TS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("INSERT of shop.orders")
                .hasMessageContaining("DELETE of shop.orders")
                .hasMessageContaining("change 2");
    }

    @Test
    void statementsAreNeverMixedWithRowsOrEachOther() {
        ChangeEvent insert = insert(ORDERS, row("1", "a", "1.0", "n", "x"));
        ChangeEvent alter = statement(ChangeType.ALTER, ORDERS, "ALTER TABLE orders ADD c int");
        ChangeEvent truncate = statement(ChangeType.TRUNCATE, LOG, "TRUNCATE log");

        assertThatThrownBy(() -> encoder.encode(List.of(insert, alter), ID, TS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("INSERT of shop.orders")
                .hasMessageContaining("ALTER of shop.orders")
                .hasMessageContaining("encoded alone");
        assertThatThrownBy(() -> encoder.encode(List.of(alter, insert), ID, TS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ALTER of shop.orders")
                .hasMessageContaining("INSERT of shop.orders");
        assertThatThrownBy(() -> encoder.encode(List.of(alter, truncate), ID, TS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ALTER of shop.orders")
                .hasMessageContaining("TRUNCATE of shop.log");
    }

    @Test
    void emptyInputIsRejectedAndTheEncoderStaysUsable() {
        assertThatThrownBy(() -> encoder.encode(List.of(), ID, TS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one change");
        assertThatThrownBy(
                        () ->
                                encoder.encode(
                                        Arrays.asList(insert(LOG, row("a", "b")), null), ID, TS))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("change 1");

        assertSameAsCanal(List.of(insert(LOG, row("a", "b"))));
    }

    // ---- helpers ----

    /**
     * Asserts that our bytes are the FlatMessage Canal's converter builds for the same changes,
     * from Sluice's binary packet and from Canal's builders' packet alike; returns our bytes as
     * Canal's Kafka client parses them.
     */
    private FlatMessage assertSameAsCanal(List<ChangeEvent> changes) {
        byte[] ours = encoder.encode(changes, ID, TS);
        FlatMessage viaBinary = canalFlat(binary.encode(changes, ID, TS));
        FlatMessage viaBuilders = canalFlat(CanalLogEventPackets.packet(changes, ID));

        assertSameFlat(ours, viaBuilders, "Canal's converter on Canal's builders' entry");
        return assertSameFlat(ours, viaBinary, "Canal's converter on Sluice's binary entry");
    }

    /**
     * Asserts that {@code ours}, parsed as Canal's Kafka client parses it, equals {@code canal} in
     * every field, and that it is byte for byte what Canal's producers write for {@code canal};
     * returns the parsed message.
     */
    private static FlatMessage assertSameFlat(byte[] ours, FlatMessage canal, String judge) {
        FlatMessage parsed = parse(ours);
        assertThat(parsed)
                .as("Sluice's flat message, field by field against %s", judge)
                .usingRecursiveComparison()
                .isEqualTo(canal);
        byte[] canalBytes = CanalFlatPath.toJsonBytes(canal);
        assertThat(new String(ours, StandardCharsets.UTF_8))
                .as("Sluice's flat JSON against %s serialized as Canal's producers do", judge)
                .isEqualTo(new String(canalBytes, StandardCharsets.UTF_8));
        assertThat(ours).isEqualTo(canalBytes);
        return parsed;
    }

    /**
     * The FlatMessage Canal's converter builds from a binary packet. Canal's converter reads the
     * clock for {@code ts}, where Sluice takes the build time from its caller: the caller's is put
     * in its place.
     */
    private static FlatMessage canalFlat(byte[] packet) {
        FlatMessage flat = CanalFlatPath.fromPacket(packet);
        assertThat(flat.getTs()).as("Canal's ts, read from the clock").isPositive();
        flat.setTs(TS);
        return flat;
    }

    /** As Canal's {@code KafkaCanalConnector} reads a flat message. */
    private static FlatMessage parse(byte[] json) {
        return JSON.parseObject(json, FlatMessage.class);
    }

    private byte[] encode(ChangeEvent change) {
        return new CanalFlatEncoder().encode(List.of(change), ID, TS);
    }

    private static TableSchema orders() {
        return TableSchema.builder("shop", "orders")
                .column("id", "bigint(20)", Types.BIGINT, true)
                .column("name", "varchar(64)", Types.VARCHAR, false)
                .column("amount", "decimal(10,2)", Types.DECIMAL, false)
                .column("note", "text", Types.CLOB, false)
                .column("bin", "varbinary(16)", Types.BLOB, false)
                .build();
    }

    private static Map<String, String> orderMap(String... values) {
        Map<String, String> map = new LinkedHashMap<>();
        String[] names = {"id", "name", "amount", "note", "bin"};
        for (int i = 0; i < names.length; i++) {
            map.put(names[i], values[i]);
        }
        return map;
    }

    private static Map<String, String> singleton(String key, String value) {
        Map<String, String> map = new LinkedHashMap<>();
        map.put(key, value);
        return map;
    }

    /** A row image; a null element is SQL NULL. */
    private static RowImage row(String... values) {
        RowImage.Builder row = new RowImage.Builder();
        for (String value : values) {
            if (value == null) {
                row.appendNull();
            } else {
                row.append(value);
            }
        }
        return row.build();
    }

    private static ChangeEvent.Builder change(TableSchema schema, ChangeType type) {
        return ChangeEvent.builder(schema, type)
                .executeTime(ES)
                .gtid(GTID)
                .binlog("mysql-bin.000003", 1234, 0)
                .serverId(1);
    }

    private static ChangeEvent insert(TableSchema schema, RowImage after) {
        return change(schema, ChangeType.INSERT).after(after).build();
    }

    private static ChangeEvent update(TableSchema schema, RowImage before, RowImage after) {
        return change(schema, ChangeType.UPDATE).before(before).after(after).build();
    }

    private static ChangeEvent delete(TableSchema schema, RowImage before) {
        return change(schema, ChangeType.DELETE).before(before).build();
    }

    private static ChangeEvent statement(ChangeType type, TableSchema schema, String sql) {
        return change(schema, type).sql(sql).build();
    }
}
