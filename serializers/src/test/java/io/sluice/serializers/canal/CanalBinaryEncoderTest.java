package io.sluice.serializers.canal;

import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.CanalEntry.Column;
import com.alibaba.otter.canal.protocol.CanalEntry.Entry;
import com.alibaba.otter.canal.protocol.CanalEntry.EntryType;
import com.alibaba.otter.canal.protocol.CanalEntry.EventType;
import com.alibaba.otter.canal.protocol.CanalEntry.Header;
import com.alibaba.otter.canal.protocol.CanalEntry.Pair;
import com.alibaba.otter.canal.protocol.CanalEntry.RowChange;
import com.alibaba.otter.canal.protocol.CanalEntry.RowData;
import com.alibaba.otter.canal.protocol.CanalPacket;
import com.alibaba.otter.canal.protocol.Message;
import com.google.protobuf.InvalidProtocolBufferException;
import io.sluice.serializers.bench.BenchmarkRows;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Judges {@link CanalBinaryEncoder} by Canal 1.1.8's own classes: its consumer must decode every
 * field back, and its protobuf builders, set the way {@code LogEventConvert} sets them ({@link
 * CanalLogEventPackets}), must produce the very same bytes.
 */
class CanalBinaryEncoderTest {

    private static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "bigint(20)", Types.BIGINT, true)
                    .column("name", "varchar(32)", Types.VARCHAR, false)
                    .column("price", "decimal(10,2)", Types.DECIMAL, false)
                    .column("flag", "bit(1)", Types.BIT, false)
                    .column("tiny", "tinyint(4)", Types.TINYINT, false)
                    .column("note", "text", Types.CLOB, false)
                    .build();

    /** Every negative java.sql.Types code Canal reports, to force 10-byte int32 varints. */
    private static final TableSchema NEGATIVE_TYPES =
            TableSchema.builder("t", "neg")
                    .column("a", "bigint(20)", Types.BIGINT, true)
                    .column("b", "bit(8)", Types.BIT, false)
                    .column("c", "tinyint(4)", Types.TINYINT, false)
                    .column("d", "binary(4)", Types.BINARY, false)
                    .column("e", "varbinary(4)", Types.VARBINARY, false)
                    .column("f", "longblob", Types.LONGVARBINARY, false)
                    .build();

    private static final TableSchema NO_KEY =
            TableSchema.builder("logs", "events")
                    .column("at", "datetime(3)", Types.TIMESTAMP, false)
                    .column("msg", "varchar(255)", Types.VARCHAR, false)
                    .build();

    private static final TableSchema UNICODE =
            TableSchema.builder("店铺", "订单😀")
                    .column("编号", "int(11)", Types.INTEGER, true)
                    .column("名字", "varchar(20)", Types.VARCHAR, false)
                    .column("blob", "blob", Types.BLOB, false)
                    .build();

    private final CanalBinaryEncoder encoder = new CanalBinaryEncoder();

    // ---- row changes -------------------------------------------------------------------------

    @Test
    void insertIsWhatCanalWrites() {
        ChangeEvent insert =
                at(ChangeEvent.builder(ITEMS, ChangeType.INSERT))
                        .after(row(1, "fig", "1.50", "1", "-5", "ripe"))
                        .build();

        assertMatchesCanal(List.of(insert), 7);
    }

    @Test
    void updateMarksOnlyChangedAfterColumns() {
        // name unchanged, price changed, flag NULL -> value, tiny value -> NULL, note NULL -> NULL
        ChangeEvent update =
                at(ChangeEvent.builder(ITEMS, ChangeType.UPDATE))
                        .before(row(1, "fig", "1.50", null, "3", null))
                        .after(row(1, "fig", "2.00", "0", null, null))
                        .build();

        RowData data = assertMatchesCanal(List.of(update), 8).getRowDatas(0);

        assertThat(data.getBeforeColumnsList()).extracting(Column::getUpdated).containsOnly(false);
        assertThat(data.getAfterColumnsList())
                .extracting(Column::getUpdated)
                .containsExactly(false, false, true, true, true, false);
    }

    @Test
    void deleteHasBeforeColumnsOnly() {
        ChangeEvent delete =
                at(ChangeEvent.builder(ITEMS, ChangeType.DELETE))
                        .before(row(1, "fig", "1.50", "1", "-5", "ripe"))
                        .build();

        RowData data = assertMatchesCanal(List.of(delete), 9).getRowDatas(0);

        assertThat(data.getAfterColumnsCount()).isZero();
        assertThat(data.getBeforeColumnsList()).extracting(Column::getUpdated).containsOnly(false);
    }

    @ParameterizedTest
    @EnumSource(
            value = ChangeType.class,
            names = {"INSERT", "UPDATE", "DELETE"})
    void threeRowsMakeOneEntryWithThreeRowDatas(ChangeType type) {
        List<ChangeEvent> changes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ChangeEvent.Builder change = at(ChangeEvent.builder(ITEMS, type));
            RowImage before = row(i, "item " + i, "1.0" + i, "0", "1", i == 1 ? null : "n");
            RowImage after = row(i, "item " + i, "2.0" + i, "1", "1", "");
            if (type != ChangeType.INSERT) {
                change.before(before);
            }
            if (type != ChangeType.DELETE) {
                change.after(after);
            }
            changes.add(change.build());
        }

        RowChange rowChange = assertMatchesCanal(changes, 10);

        assertThat(rowChange.getRowDatasCount()).isEqualTo(3);
        Entry entry = decodeEntry(encoder.encode(changes, 10, 0));
        assertThat(entry.getHeader().getPropsList())
                .extracting(Pair::getKey, Pair::getValue)
                .containsExactly(tuple("rowsCount", "3"));
    }

    @Test
    void nullHasNoValueAndEmptyStringHasAnEmptyOne() {
        ChangeEvent insert =
                at(ChangeEvent.builder(ITEMS, ChangeType.INSERT))
                        .after(row(0, "", null, "", null, ""))
                        .build();

        List<Column> columns =
                assertMatchesCanal(List.of(insert), 1).getRowDatas(0).getAfterColumnsList();

        assertThat(columns)
                .extracting(Column::getIsNull)
                .containsExactly(false, false, true, false, true, false);
        assertThat(columns)
                .extracting(Column::hasValue)
                .containsExactly(true, true, false, true, false, true);
        assertThat(columns.get(1).getValue()).isEmpty();
        // index 0 and isKey=false are explicitly set defaults, written as in Canal (proto2).
        assertThat(columns.get(0).hasIndex()).isTrue();
        assertThat(columns.get(1).hasIsKey()).isTrue();
    }

    @Test
    void negativeSqlTypesAreTenByteVarints() {
        ChangeEvent update =
                at(ChangeEvent.builder(NEGATIVE_TYPES, ChangeType.UPDATE))
                        .before(row("-1", "255", "-128", null, "x", ""))
                        .after(row("-1", "0", "127", "ab", "x", null))
                        .build();

        byte[] bytes = encoder.encode(List.of(update), 3, 0);

        assertMatchesCanal(List.of(update), 3);
        assertThat(hex(bytes)).contains("10fbffffffffffffffff01"); // sqlType -5
        assertThat(hex(bytes)).contains("10f9ffffffffffffffff01"); // sqlType -7
        assertThat(hex(bytes)).contains("10fcffffffffffffffff01"); // sqlType -4
    }

    @Test
    void columnBytesAreThoseVerifiedAgainstCanal() {
        // docs/dev/canal-format-notes.md §3.3: two columns captured from Canal's own builder.
        TableSchema schema =
                TableSchema.builder("db", "t")
                        .column("id", "bigint(20) unsigned", Types.DECIMAL, true)
                        .column("n", "varchar(10)", Types.BIGINT, false)
                        .build();
        RowImage row = row("18446744073709551615", null);
        ChangeEvent insert = at(ChangeEvent.builder(schema, ChangeType.INSERT)).after(row).build();
        ChangeEvent delete = at(ChangeEvent.builder(schema, ChangeType.DELETE)).before(row).build();

        String inserted = hex(encoder.encode(List.of(insert), 1, 0));
        String deleted = hex(encoder.encode(List.of(delete), 1, 0));

        assertThat(inserted)
                .contains(
                        "0800"
                                + "1003"
                                + "1a02"
                                + hex("id")
                                + "2001"
                                + "2801"
                                + "3000"
                                + "4214"
                                + hex("18446744073709551615")
                                + "5213"
                                + hex("bigint(20) unsigned"));
        assertThat(deleted)
                .contains(
                        "0801"
                                + "10fbffffffffffffffff01"
                                + "1a01"
                                + hex("n")
                                + "2000"
                                + "2800"
                                + "3001"
                                + "520b"
                                + hex("varchar(10)"));
    }

    @Test
    void unicodeNamesAndValuesAreUtf8() {
        ChangeEvent insert =
                at(ChangeEvent.builder(UNICODE, ChangeType.INSERT))
                        .after(row(1, "中文 😀 café ℤ", "日本語"))
                        .gtid("3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5")
                        .build();

        RowChange rowChange = assertMatchesCanal(List.of(insert), 2);

        assertThat(rowChange.getRowDatas(0).getAfterColumns(1).getValue())
                .isEqualTo("中文 😀 café ℤ");
        assertThat(rowChange.getRowDatas(0).getAfterColumns(0).getName()).isEqualTo("编号");
    }

    @Test
    void binaryValuesKeepEveryIsoLatin1Char() {
        byte[] raw = new byte[256];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = (byte) i;
        }
        RowImage row =
                new RowImage.Builder()
                        .append(1)
                        .append("x")
                        .appendLatin1(raw, 0, raw.length)
                        .build();
        ChangeEvent insert = at(ChangeEvent.builder(UNICODE, ChangeType.INSERT)).after(row).build();

        RowChange rowChange = assertMatchesCanal(List.of(insert), 4);

        String value = rowChange.getRowDatas(0).getAfterColumns(2).getValue();
        assertThat(value.getBytes(StandardCharsets.ISO_8859_1)).isEqualTo(raw);
    }

    @Test
    void tableWithoutPrimaryKey() {
        ChangeEvent delete =
                at(ChangeEvent.builder(NO_KEY, ChangeType.DELETE))
                        .before(row("2024-02-29 23:59:59.123", "hello"))
                        .build();

        RowChange rowChange = assertMatchesCanal(List.of(delete), 5);

        assertThat(rowChange.getRowDatas(0).getBeforeColumnsList())
                .extracting(Column::getIsKey)
                .containsOnly(false);
    }

    @Test
    void longValuesNeedMultiByteLengths() {
        String medium = "m".repeat(300); // 2-byte lengths for value, column and row
        String large = "€".repeat(7000); // 21000 bytes: 3-byte lengths all the way out
        ChangeEvent update =
                at(ChangeEvent.builder(ITEMS, ChangeType.UPDATE))
                        .before(row(1, medium, "1.0", "1", "1", large))
                        .after(row(1, medium, "1.0", "1", "1", large + "!"))
                        .build();

        assertMatchesCanal(List.of(update), 300);
    }

    @Test
    void headerNumbersOfEveryWidth() {
        ChangeEvent insert =
                ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                        .after(row(1, "a", "1.0", "1", "1", "n"))
                        .binlog("", 0, 0)
                        .serverId(4_294_967_295L)
                        .executeTime(0)
                        .build();
        ChangeEvent far =
                ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                        .after(row(1, "a", "1.0", "1", "1", "n"))
                        .binlog("mysql-bin.999999", 9_000_000_000L, 0)
                        .serverId(1)
                        .executeTime(Long.MAX_VALUE)
                        .build();

        assertMatchesCanal(List.of(insert), 0);
        assertMatchesCanal(List.of(far), Long.MAX_VALUE);
        assertMatchesCanal(List.of(far), -1);
    }

    @Test
    void batchIdZeroIsLeftOutAsProto3DoesAndDecodesAsZero() throws Exception {
        ChangeEvent insert =
                at(ChangeEvent.builder(ITEMS, ChangeType.INSERT))
                        .after(row(1, "a", "1.0", "1", "1", "n"))
                        .build();

        byte[] zero = encoder.encode(List.of(insert), 0, 0);
        byte[] five = encoder.encode(List.of(insert), 5, 0);

        // Packet: version=1 (10 01), type=MESSAGES (18 07), body (2a); no magic, no compression.
        assertThat(hex(zero)).startsWith("100118072a");
        assertThat(CanalMessageDeserializer.deserializer(zero).getId()).isZero();
        assertThat(hex(body(zero))).startsWith("12"); // straight to messages
        assertThat(hex(body(five))).startsWith("080512");
    }

    private static byte[] body(byte[] packet) throws InvalidProtocolBufferException {
        return CanalPacket.Packet.parseFrom(packet).getBody().toByteArray();
    }

    @Test
    void benchmarkRowsAllMatchCanal() {
        Map<ChangeType, List<ChangeEvent>> byType = new EnumMap<>(ChangeType.class);
        for (ChangeEvent change : BenchmarkRows.mixedDml(300, 42)) {
            assertMatchesCanal(List.of(change), change.binlogPosition());
            byType.computeIfAbsent(change.type(), t -> new ArrayList<>()).add(change);
        }
        for (List<ChangeEvent> sameType : byType.values()) {
            assertMatchesCanal(sameType.subList(0, 10), 11);
        }
        List<ChangeEvent> wide = BenchmarkRows.wideInserts(20, 42);
        assertMatchesCanal(wide.subList(0, 1), 1);
        assertMatchesCanal(wide.subList(0, 10), 2);
    }

    // ---- DDL ---------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(
            value = ChangeType.class,
            names = {"CREATE", "ALTER", "ERASE", "QUERY", "TRUNCATE", "RENAME", "CINDEX", "DINDEX"})
    void ddlIsOneEntryWithItsStatement(ChangeType type) {
        ChangeEvent ddl =
                at(ChangeEvent.builder(ITEMS, type))
                        .sql(type + " statement on `shop`.`items` -- 注释 😀")
                        .build();

        RowChange rowChange = assertMatchesCanal(List.of(ddl), 12);

        assertThat(rowChange.getIsDdl()).isTrue();
        assertThat(rowChange.getRowDatasCount()).isZero();
        assertThat(rowChange.getDdlSchemaName()).isEqualTo("shop");
        Header header = decodeEntry(encoder.encode(List.of(ddl), 12, 0)).getHeader();
        assertThat(header.getPropsCount()).isZero();
    }

    @Test
    void ddlLeavesOutNamesItDoesNotHave() {
        TableSchema database = TableSchema.builder("newdb", "").build();
        TableSchema nothing = TableSchema.builder("", "").build();
        ChangeEvent createDatabase =
                at(ChangeEvent.builder(database, ChangeType.QUERY))
                        .sql("CREATE DATABASE newdb")
                        .build();
        ChangeEvent procedure =
                at(ChangeEvent.builder(nothing, ChangeType.QUERY))
                        .sql("CREATE PROCEDURE p() BEGIN END")
                        .build();

        assertMatchesCanal(List.of(createDatabase), 1);
        assertMatchesCanal(List.of(procedure), 2);
        Header created = decodeEntry(encoder.encode(List.of(createDatabase), 1, 0)).getHeader();
        assertThat(created.hasSchemaName()).isTrue();
        assertThat(created.hasTableName()).isFalse();
        byte[] bytes = encoder.encode(List.of(procedure), 2, 0);
        Entry entry = decodeEntry(bytes);
        assertThat(entry.getHeader().hasSchemaName()).isFalse();
        assertThat(parseRowChange(entry).hasDdlSchemaName()).isFalse();
    }

    // ---- QUERY of a DML statement (MySQL rows-query events) -----------------------------------

    @Test
    void queryOfADmlStatementIsAnEntryWithSqlAndNoIsDdl() {
        ChangeEvent first =
                at(ChangeEvent.builder(ITEMS, ChangeType.UPDATE))
                        .before(row(1, "fig", "1.00", "1", "-5", "ripe"))
                        .after(row(1, "fig", "2.00", "1", "-5", "ripe"))
                        .query("UPDATE items SET price = price * 2 WHERE name = 'fig' -- 注释 😀")
                        .build();
        ChangeEvent query = ChangeEvent.queryOf(first);

        RowChange rowChange = assertMatchesCanal(List.of(query), 5);

        assertThat(rowChange.getEventType()).isEqualTo(EventType.QUERY);
        assertThat(rowChange.hasIsDdl()).isFalse();
        assertThat(rowChange.getIsDdl()).isFalse();
        assertThat(rowChange.getSql()).isEqualTo(first.query());
        Header header = decodeEntry(encoder.encode(List.of(query), 5, 0)).getHeader();
        assertThat(header.getEventType()).isEqualTo(EventType.QUERY);
        assertThat(header.getSchemaName()).isEqualTo("shop");
        assertThat(header.getTableName()).isEqualTo("items");
        assertThat(header.getLogfileOffset()).isEqualTo(first.binlogPosition());
        // The row that carries the query is encoded exactly as without it.
        assertThat(encoder.encode(List.of(first), 6, 0))
                .isEqualTo(
                        encoder.encode(
                                List.of(
                                        at(ChangeEvent.builder(ITEMS, ChangeType.UPDATE))
                                                .before(first.before())
                                                .after(first.after())
                                                .build()),
                                6,
                                0));
        assertThatThrownBy(() -> encoder.encode(List.of(query, query), 7, 0))
                .hasMessageContaining("is encoded alone");
    }

    @Test
    void loneSurrogateInSqlIsAQuestionMarkAsInProtobuf() {
        ChangeEvent ddl =
                at(ChangeEvent.builder(ITEMS, ChangeType.ALTER))
                        .sql("ALTER TABLE items COMMENT 'a\uD800b\uDC00c'")
                        .build();

        RowChange rowChange = assertMatchesCanal(List.of(ddl), 1);

        assertThat(rowChange.getSql()).isEqualTo("ALTER TABLE items COMMENT 'a?b?c'");
    }

    // ---- errors and reuse --------------------------------------------------------------------

    @Test
    void rejectsChangesOfDifferentTables() {
        ChangeEvent item =
                at(ChangeEvent.builder(ITEMS, ChangeType.INSERT))
                        .after(row(1, "a", "1.0", "1", "1", "n"))
                        .build();
        ChangeEvent log =
                at(ChangeEvent.builder(NO_KEY, ChangeType.INSERT)).after(row("x", "y")).build();

        assertThatThrownBy(() -> encoder.encode(List.of(item, log), 1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("INSERT of shop.items")
                .hasMessageContaining("change 1 is INSERT of logs.events");
    }

    @Test
    void rejectsAnotherVersionOfTheSameTable() {
        TableSchema altered =
                TableSchema.builder("logs", "events")
                        .column("at", "datetime(6)", Types.TIMESTAMP, false)
                        .column("msg", "varchar(255)", Types.VARCHAR, false)
                        .build();
        ChangeEvent before =
                at(ChangeEvent.builder(NO_KEY, ChangeType.INSERT)).after(row("x", "y")).build();
        ChangeEvent after =
                at(ChangeEvent.builder(altered, ChangeType.INSERT)).after(row("x", "y")).build();

        assertThatThrownBy(() -> encoder.encode(List.of(before, after), 1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("datetime(3)")
                .hasMessageContaining("datetime(6)");
    }

    @Test
    void rejectsChangesOfDifferentTypes() {
        ChangeEvent insert =
                at(ChangeEvent.builder(NO_KEY, ChangeType.INSERT)).after(row("x", "y")).build();
        ChangeEvent delete =
                at(ChangeEvent.builder(NO_KEY, ChangeType.DELETE)).before(row("x", "y")).build();

        assertThatThrownBy(() -> encoder.encode(List.of(insert, delete), 1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("change 0 is INSERT of logs.events")
                .hasMessageContaining("change 1 is DELETE of logs.events");
    }

    @Test
    void rejectsADdlWithOtherChangesAndAnEmptyCall() {
        ChangeEvent ddl =
                at(ChangeEvent.builder(NO_KEY, ChangeType.TRUNCATE)).sql("TRUNCATE events").build();

        assertThatThrownBy(() -> encoder.encode(List.of(ddl, ddl), 1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "statement (TRUNCATE of logs.events) is encoded alone, but 2 changes");
        assertThatThrownBy(() -> encoder.encode(List.of(), 1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one change");
    }

    @Test
    void reusedBufferDoesNotChangeEarlierResults() {
        ChangeEvent big =
                at(ChangeEvent.builder(ITEMS, ChangeType.INSERT))
                        .after(row(1, "b".repeat(5000), "1.0", "1", "1", "c".repeat(5000)))
                        .build();
        ChangeEvent small =
                at(ChangeEvent.builder(NO_KEY, ChangeType.INSERT)).after(row("x", "y")).build();
        ChangeEvent ddl =
                at(ChangeEvent.builder(ITEMS, ChangeType.ALTER))
                        .sql("ALTER TABLE items ENGINE=InnoDB")
                        .build();

        byte[] first = encoder.encode(List.of(big), 1, 0);
        byte[] firstCopy = first.clone();
        byte[] second = encoder.encode(List.of(small), 2, 0);
        byte[] secondCopy = second.clone();
        byte[] third = encoder.encode(List.of(ddl), 3, 0);
        byte[] again = encoder.encode(List.of(big), 1, 0);

        assertThat(first)
                .isEqualTo(firstCopy)
                .isEqualTo(CanalLogEventPackets.packet(List.of(big), 1))
                .isEqualTo(again)
                .isNotSameAs(again);
        assertThat(second)
                .isEqualTo(secondCopy)
                .isEqualTo(CanalLogEventPackets.packet(List.of(small), 2));
        assertThat(third).isEqualTo(CanalLogEventPackets.packet(List.of(ddl), 3));
        assertThat(second.length).isLessThan(first.length); // exact size, not the buffer
    }

    @Test
    void messagesOverOneMebibyteAreEncodedToo() {
        // 3 MB of value: four-byte lengths, and written outside the reused buffer.
        String huge = "x".repeat(3_000_000);
        ChangeEvent big =
                at(ChangeEvent.builder(ITEMS, ChangeType.INSERT))
                        .after(row(1, "a", "1.0", "1", "1", huge))
                        .build();
        ChangeEvent small =
                at(ChangeEvent.builder(NO_KEY, ChangeType.INSERT)).after(row("x", "y")).build();

        byte[] before = encoder.encode(List.of(small), 1, 0);
        assertMatchesCanal(List.of(big), 2);
        byte[] after = encoder.encode(List.of(small), 1, 0);

        assertThat(after)
                .isEqualTo(before)
                .isEqualTo(CanalLogEventPackets.packet(List.of(small), 1));
    }

    @Test
    void interleavedTablesKeepTheirOwnColumns() {
        List<ChangeEvent> changes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            changes.add(
                    at(ChangeEvent.builder(NO_KEY, ChangeType.INSERT))
                            .after(row("t" + i, "m"))
                            .build());
            changes.add(
                    at(ChangeEvent.builder(ITEMS, ChangeType.DELETE))
                            .before(row(i, "a", "1.0", "1", "1", "n"))
                            .build());
            changes.add(
                    at(ChangeEvent.builder(UNICODE, ChangeType.INSERT))
                            .after(row(i, "名", "b"))
                            .build());
        }

        for (ChangeEvent change : changes) {
            assertMatchesCanal(List.of(change), 1);
        }
    }

    // ---- Canal's side ------------------------------------------------------------------------

    /**
     * Asserts that our bytes equal Canal's builder output and that Canal's consumer reads every
     * field back as the model says; returns the decoded RowChange for further checks.
     */
    private RowChange assertMatchesCanal(List<ChangeEvent> changes, long messageId) {
        byte[] ours = encoder.encode(changes, messageId, 1_700_000_000_999L);

        assertThat(hex(ours)).isEqualTo(hex(CanalLogEventPackets.packet(changes, messageId)));
        return assertDecodesAsModel(ours, changes, messageId);
    }

    /** Checks what Canal's consumer decodes against the model directly, field by field. */
    private static RowChange assertDecodesAsModel(
            byte[] bytes, List<ChangeEvent> changes, long messageId) {
        Message message = CanalMessageDeserializer.deserializer(bytes);
        assertThat(message.getId()).isEqualTo(messageId);
        assertThat(message.getEntries()).hasSize(1);
        Entry entry = message.getEntries().get(0);
        ChangeEvent first = changes.get(0);
        TableSchema schema = first.schema();

        assertThat(entry.getEntryType()).isEqualTo(EntryType.ROWDATA);
        Header header = entry.getHeader();
        assertThat(header.getVersion()).isEqualTo(1);
        assertThat(header.getLogfileName()).isEqualTo(first.binlogFile());
        assertThat(header.getLogfileOffset()).isEqualTo(first.binlogPosition());
        assertThat(header.getServerId()).isEqualTo(first.serverId());
        assertThat(header.getServerenCode()).isEqualTo("UTF-8");
        assertThat(header.getExecuteTime()).isEqualTo(first.executeTime());
        assertThat(header.getSourceType()).isEqualTo(CanalEntry.Type.MYSQL);
        assertThat(header.getSchemaName()).isEqualTo(schema.database());
        assertThat(header.getTableName()).isEqualTo(schema.table());
        assertThat(header.hasEventLength()).isTrue();
        assertThat(header.getEventLength()).isZero();
        assertThat(header.getEventType().getNumber()).isEqualTo(first.type().canalNumber());
        assertThat(header.getGtid()).isEqualTo(first.gtid());
        assertThat(header.hasGtid()).isEqualTo(!first.gtid().isEmpty());

        RowChange rowChange = parseRowChange(entry);
        assertThat(rowChange.hasTableId()).isFalse();
        assertThat(rowChange.getEventType()).isEqualTo(header.getEventType());
        assertThat(rowChange.hasIsDdl()).isEqualTo(first.isRow() || first.isDdl());
        assertThat(rowChange.getIsDdl()).isEqualTo(first.isDdl());
        if (!first.isRow()) {
            assertThat(header.getPropsCount()).isZero();
            assertThat(rowChange.getRowDatasCount()).isZero();
        }
        if (!first.isRow() && !first.isDdl()) {
            assertThat(rowChange.getSql()).isEqualTo(sanitized(first.sql()));
            assertThat(rowChange.hasDdlSchemaName()).isFalse();
            return rowChange;
        }
        if (first.isDdl()) {
            assertThat(rowChange.getSql()).isEqualTo(sanitized(first.sql()));
            assertThat(rowChange.getDdlSchemaName()).isEqualTo(schema.database());
            return rowChange;
        }
        assertThat(rowChange.hasSql()).isFalse();
        assertThat(header.getPropsList())
                .extracting(Pair::getKey, Pair::getValue)
                .containsExactly(tuple("rowsCount", String.valueOf(changes.size())));
        assertThat(rowChange.getRowDatasCount()).isEqualTo(changes.size());
        for (int r = 0; r < changes.size(); r++) {
            ChangeEvent change = changes.get(r);
            RowData data = rowChange.getRowDatas(r);
            assertColumns(data.getBeforeColumnsList(), change, change.before(), false);
            assertColumns(data.getAfterColumnsList(), change, change.after(), true);
        }
        return rowChange;
    }

    private static void assertColumns(
            List<Column> columns, ChangeEvent change, RowImage image, boolean after) {
        if (image == null) {
            assertThat(columns).isEmpty();
            return;
        }
        TableSchema schema = change.schema();
        assertThat(columns).hasSize(schema.columnCount());
        for (int i = 0; i < columns.size(); i++) {
            Column column = columns.get(i);
            String where = change.type() + (after ? " after " : " before ") + schema.name(i);
            assertThat(column.getIndex()).as(where).isEqualTo(i);
            assertThat(column.getSqlType()).as(where).isEqualTo(schema.sqlType(i));
            assertThat(column.getName()).as(where).isEqualTo(schema.name(i));
            assertThat(column.getIsKey()).as(where).isEqualTo(schema.isKey(i));
            assertThat(column.getUpdated()).as(where).isEqualTo(after && change.isUpdated(i));
            assertThat(column.getIsNull()).as(where).isEqualTo(image.isNull(i));
            assertThat(column.hasValue()).as(where).isEqualTo(!image.isNull(i));
            assertThat(column.getValue()).as(where).isEqualTo(image.isNull(i) ? "" : image.text(i));
            assertThat(column.getMysqlType()).as(where).isEqualTo(schema.mysqlType(i));
            assertThat(column.hasLength()).as(where).isFalse();
            assertThat(column.getPropsCount()).as(where).isZero();
        }
    }

    // ---- helpers -----------------------------------------------------------------------------

    private static ChangeEvent.Builder at(ChangeEvent.Builder change) {
        return change.binlog("mysql-bin.000042", 123_456L, 0)
                .serverId(7)
                .executeTime(1_700_000_000_000L)
                .gtid("0-7-1001");
    }

    /** A row image from values: numbers and strings as text, null as SQL NULL. */
    private static RowImage row(Object... values) {
        RowImage.Builder row = new RowImage.Builder();
        for (Object value : values) {
            if (value == null) {
                row.appendNull();
            } else {
                row.append(value.toString());
            }
        }
        return row.build();
    }

    private static Entry decodeEntry(byte[] bytes) {
        return CanalMessageDeserializer.deserializer(bytes).getEntries().get(0);
    }

    private static RowChange parseRowChange(Entry entry) {
        try {
            return RowChange.parseFrom(entry.getStoreValue());
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError("Canal cannot parse the RowChange", e);
        }
    }

    /** What a String becomes through UTF-8 and back: lone surrogates turn into '?'. */
    private static String sanitized(String text) {
        return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static String hex(String text) {
        return hex(text.getBytes(StandardCharsets.UTF_8));
    }
}
