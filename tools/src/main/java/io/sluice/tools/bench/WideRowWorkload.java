package io.sluice.tools.bench;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * wide-row: one table of 60 columns (id, 10 BIGINT, 10 DECIMAL, 5 DATETIME, 34 VARCHAR of about 28
 * characters), about 1.2 KB per row as Canal text; inserts in batches.
 */
final class WideRowWorkload implements Workload {

    static final int BIGINTS = 10;
    static final int DECIMALS = 10;
    static final int DATETIMES = 5;
    static final int VARCHARS = 34;
    static final Table WIDE = wideTable();

    private final int batchRows;

    WideRowWorkload(int batchRows) {
        this.batchRows = batchRows;
    }

    private static Table wideTable() {
        List<Column> columns = new ArrayList<>();
        columns.add(new Column("id", "BIGINT NOT NULL", "BIGINT"));
        for (int i = 0; i < BIGINTS; i++) {
            columns.add(new Column("n" + i, "BIGINT NOT NULL", "BIGINT"));
        }
        for (int i = 0; i < DECIMALS; i++) {
            columns.add(new Column("d" + i, "DECIMAL(14, 4) NOT NULL", "DECIMAL(14, 4)"));
        }
        for (int i = 0; i < DATETIMES; i++) {
            columns.add(new Column("t" + i, "DATETIME(3) NOT NULL", "TIMESTAMP(3)"));
        }
        for (int i = 0; i < VARCHARS; i++) {
            columns.add(new Column("s" + i, "VARCHAR(64)", "STRING"));
        }
        return new Table("wide", Collections.unmodifiableList(columns));
    }

    @Override
    public String name() {
        return "wide-row";
    }

    @Override
    public List<Table> tables() {
        return List.of(WIDE);
    }

    @Override
    public Writer newWriter(Connection connection, int worker, int workers, long seed)
            throws SQLException {
        StringBuilder sql = new StringBuilder("INSERT INTO wide VALUES (?");
        for (int i = 1; i < WIDE.columns.size(); i++) {
            sql.append(", ?");
        }
        PreparedStatement insert = connection.prepareStatement(sql.append(')').toString());
        SplittableRandom random = new SplittableRandom(seed);
        long[] sequence = {0};
        long[] ids = new long[batchRows];
        return stats -> {
            for (int r = 0; r < batchRows; r++) {
                long id = ++sequence[0] * workers + worker + 1;
                ids[r] = id;
                int p = 1;
                insert.setLong(p++, id);
                for (int i = 0; i < BIGINTS; i++) {
                    insert.setLong(p++, random.nextLong(1L << 40));
                }
                for (int i = 0; i < DECIMALS; i++) {
                    insert.setBigDecimal(p++, BigDecimal.valueOf(random.nextLong(1L << 36), 4));
                }
                Timestamp now = new Timestamp(System.currentTimeMillis());
                for (int i = 0; i < DATETIMES; i++) {
                    insert.setTimestamp(p++, now);
                }
                for (int i = 0; i < VARCHARS; i++) {
                    insert.setString(p++, "value-" + i + "-" + Long.toHexString(random.nextLong()));
                }
                insert.addBatch();
            }
            insert.executeBatch();
            if (stats.tracksCommits()) {
                for (long id : ids) {
                    stats.insertCommitting("wide", id);
                }
            }
            connection.commit();
            if (stats.tracksCommits()) {
                long now = System.currentTimeMillis();
                for (long id : ids) {
                    stats.insertCommitted("wide", id, now);
                }
            }
            stats.committed(batchRows, 0);
        };
    }
}
