package io.sluice.tools.bench;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * A benchmark workload of REFERENCE §6: its tables, and writers that run its transactions. Each
 * writer owns one connection and a disjoint slice of primary keys, so several run at once without
 * lock conflicts.
 */
public interface Workload {

    /** The name on the command line and in reports. */
    String name();

    /** The workload's tables. */
    List<Table> tables();

    /** The statements that create the workload's tables. */
    default String[] ddl() {
        return tables().stream().map(Table::mysqlDdl).toArray(String[]::new);
    }

    /** A writer for worker {@code worker} of {@code workers} on {@code connection}. */
    Writer newWriter(Connection connection, int worker, int workers, long seed) throws SQLException;

    /** One column: its MariaDB and its Flink SQL type. */
    final class Column {
        final String name;
        final String mysqlType;
        final String flinkType;

        Column(String name, String mysqlType, String flinkType) {
            this.name = name;
            this.mysqlType = mysqlType;
            this.flinkType = flinkType;
        }
    }

    /** A table whose first column is its BIGINT primary key. */
    final class Table {
        final String name;
        final List<Column> columns;

        Table(String name, List<Column> columns) {
            this.name = name;
            this.columns = columns;
        }

        String mysqlDdl() {
            StringBuilder ddl = new StringBuilder("CREATE TABLE ").append(name).append(" (");
            for (Column column : columns) {
                ddl.append(column.name).append(' ').append(column.mysqlType).append(", ");
            }
            return ddl.append("PRIMARY KEY (")
                    .append(columns.get(0).name)
                    .append(")) DEFAULT CHARSET = utf8mb4")
                    .toString();
        }
    }

    /** Runs transactions; reports each committed one to {@code stats}. */
    interface Writer {
        void nextTransaction(LoadStats stats) throws SQLException;
    }

    static Workload named(String name, int batchRows) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "mixed-dml":
                return new MixedDmlWorkload();
            case "batch-insert":
                return new BatchInsertWorkload(batchRows);
            case "wide-row":
                return new WideRowWorkload(Math.max(1, batchRows / 20));
            case "snapshot":
                return new SnapshotWorkload(batchRows);
            default:
                throw new IllegalArgumentException(
                        "'--workload' takes mixed-dml, batch-insert, wide-row or snapshot, but got '"
                                + name
                                + "'");
        }
    }
}
