package io.sluice.serializers.bench;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The rows the encoder benchmarks encode: mixed-DML rows (~10 columns, an INSERT / UPDATE / DELETE
 * mix as in REFERENCE §6) and wide rows (60 columns, ~1.2 KB), generated from a fixed seed.
 */
public final class BenchmarkRows {

    public static final TableSchema ORDERS =
            TableSchema.builder("shop", "orders")
                    .column("id", "bigint(20)", Types.BIGINT, true)
                    .column("customer_id", "bigint(20)", Types.BIGINT, false)
                    .column("amount", "decimal(10,2)", Types.DECIMAL, false)
                    .column("qty", "int(11)", Types.INTEGER, false)
                    .column("status", "varchar(16)", Types.VARCHAR, false)
                    .column("email", "varchar(128)", Types.VARCHAR, false)
                    .column("note", "text", Types.CLOB, false)
                    .column("paid", "tinyint(1)", Types.TINYINT, false)
                    .column("created_at", "datetime(3)", Types.TIMESTAMP, false)
                    .column("updated_at", "timestamp(3)", Types.TIMESTAMP, false)
                    .build();

    public static final TableSchema WIDE = wideSchema();

    private static final String[] STATUSES = {"new", "paid", "shipped", "done", "cancelled"};

    private BenchmarkRows() {}

    /** {@code count} mixed-DML changes: about a third each of INSERT, UPDATE and DELETE. */
    public static List<ChangeEvent> mixedDml(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<ChangeEvent> changes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            RowImage row = orderRow(random, i);
            ChangeType type = ChangeType.values()[random.nextInt(3)];
            ChangeEvent.Builder change =
                    ChangeEvent.builder(ORDERS, type)
                            .executeTime(1_700_000_000_000L + i * 1000L)
                            .binlog("mysql-bin.000003", 4 + i * 300L, 0)
                            .serverId(1)
                            .gtid("0-1-" + (1000 + i));
            switch (type) {
                case INSERT:
                    change.after(row);
                    break;
                case UPDATE:
                    change.before(row).after(orderRow(random, i));
                    break;
                default:
                    change.before(row);
            }
            changes.add(change.build());
        }
        return changes;
    }

    /** {@code count} INSERTs of 60-column rows of about 1.2 KB of values each. */
    public static List<ChangeEvent> wideInserts(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<ChangeEvent> changes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            RowImage.Builder row = new RowImage.Builder(1400, 60);
            row.append(i);
            for (int c = 1; c < 60; c++) {
                switch (c % 4) {
                    case 0:
                        row.append(random.nextLong(1_000_000_000L));
                        break;
                    case 1:
                        row.append(money(random, 100_000));
                        break;
                    case 2:
                        row.append("2024-02-29 23:59:59." + (100 + random.nextInt(900)));
                        break;
                    default:
                        row.append(text(random, 40));
                }
            }
            changes.add(
                    ChangeEvent.builder(WIDE, ChangeType.INSERT)
                            .after(row.build())
                            .executeTime(1_700_000_000_000L + i * 1000L)
                            .binlog("mysql-bin.000007", 4 + i * 1500L, 0)
                            .serverId(1)
                            .build());
        }
        return changes;
    }

    private static RowImage orderRow(SplittableRandom random, int id) {
        RowImage.Builder row = new RowImage.Builder(200, 10);
        row.append(id)
                .append(random.nextInt(100_000))
                .append(money(random, 10_000))
                .append(1 + random.nextInt(9))
                .append(STATUSES[random.nextInt(STATUSES.length)]);
        if (random.nextInt(10) == 0) {
            row.appendNull();
        } else {
            row.append("c" + random.nextInt(1_000_000) + "@example.com");
        }
        if (random.nextInt(4) == 0) {
            row.appendNull();
        } else {
            row.append("deliver to door " + random.nextInt(99) + ", ring twice");
        }
        return row.append(random.nextInt(2))
                .append("2024-02-29 23:59:59." + (100 + random.nextInt(900)))
                .append("2024-03-01 08:00:00." + (100 + random.nextInt(900)))
                .build();
    }

    private static String money(SplittableRandom random, int maxUnits) {
        int cents = random.nextInt(maxUnits * 100);
        return (cents / 100) + "." + (cents % 100 < 10 ? "0" : "") + (cents % 100);
    }

    private static String text(SplittableRandom random, int length) {
        StringBuilder out = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            out.append((char) ('a' + random.nextInt(26)));
        }
        return out.toString();
    }

    private static TableSchema wideSchema() {
        TableSchema.Builder schema = TableSchema.builder("shop", "wide");
        schema.column("id", "bigint(20)", Types.BIGINT, true);
        for (int c = 1; c < 60; c++) {
            switch (c % 4) {
                case 0:
                    schema.column("n" + c, "bigint(20)", Types.BIGINT, false);
                    break;
                case 1:
                    schema.column("d" + c, "decimal(12,2)", Types.DECIMAL, false);
                    break;
                case 2:
                    schema.column("t" + c, "datetime(3)", Types.TIMESTAMP, false);
                    break;
                default:
                    schema.column("s" + c, "varchar(64)", Types.VARCHAR, false);
            }
        }
        return schema.build();
    }
}
