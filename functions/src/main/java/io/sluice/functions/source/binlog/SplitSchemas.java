package io.sluice.functions.source.binlog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;

import io.debezium.relational.Table;
import io.debezium.relational.history.TableChanges;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.functions.source.internal.SourceJdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;

/**
 * The table schemas a binlog split is read with ({@link #of}) and the split a checkpoint stores
 * them in ({@link #checkpoint}): what {@link BinlogSourceReader} does on a start, a restore and a
 * checkpoint, in one place so that tests go through the same code.
 */
@Internal
public final class SplitSchemas {

    private SplitSchemas() {}

    /**
     * The schemas to read {@code split} from its starting offset with.
     *
     * @param captured whether (database, table) is captured
     * @param timestampZone the zone TIMESTAMP values are written in
     */
    public static TableSchemas of(
            MySqlBinlogSplit split,
            SourceJdbc jdbc,
            BiPredicate<String, String> captured,
            ZoneId timestampZone)
            throws SQLException {
        try (Connection connection = jdbc.connect()) {
            return TableSchemas.read(connection, captured, ColumnTypeStyle.of(jdbc), timestampZone)
                    .overwrite(tablesOf(split));
        }
    }

    /**
     * {@code split} as a checkpoint stores it: starting at {@code position}, with {@code schemas}
     * (the schemas there) as its table schemas.
     */
    public static MySqlBinlogSplit checkpoint(
            MySqlBinlogSplit split, BinlogPosition position, TableSchemas.State schemas) {
        return new MySqlBinlogSplit(
                split.splitId(),
                position.toBinlogOffset(),
                split.getEndingOffset(),
                split.getFinishedSnapshotSplitInfos(),
                schemas.asTableChanges(),
                split.getTotalFinishedSplitSize(),
                split.isSuspended());
    }

    private static List<Table> tablesOf(MySqlBinlogSplit split) {
        return split.getTableSchemas() == null
                ? List.of()
                : split.getTableSchemas().values().stream()
                        .map(TableChanges.TableChange::getTable)
                        .collect(Collectors.toList());
    }
}
