package io.sluice.functions.source.binlog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;

import io.debezium.relational.Table;
import io.debezium.relational.history.TableChanges;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.functions.source.internal.SourceJdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.stream.Collectors;

/**
 * The table schemas a binlog split is read with ({@link #of}) and the split a checkpoint stores
 * them in ({@link #checkpoint}): what {@link BinlogSourceReader} does on a start, a restore and a
 * checkpoint, in one place so that tests go through the same code.
 */
@Internal
public final class SplitSchemas {

    /**
     * The offset key that marks the split of a checkpoint of Sluice's reader, whose table schemas
     * are every table the reader followed at its position.
     */
    static final String SCHEMAS_KEY = "sluice_schemas";

    private static final String EVERY_TABLE = "all";

    private SplitSchemas() {}

    /**
     * The schemas to read {@code split} from its starting offset with. A checkpoint of Sluice's
     * reader holds every table it followed there: its tables alone, as they were. Any other split
     * (a start, Flink CDC's reader's checkpoint, the split after a snapshot) may hold only some
     * tables or none: the captured tables from information_schema now, the split's put over them.
     * Either way a captured table the binlog names later but the schemas do not hold is read from
     * the server then.
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
        ColumnTypeStyle style = ColumnTypeStyle.of(jdbc);
        try (Connection connection = jdbc.connect()) {
            return holdsEveryFollowedTable(split.getStartingOffset())
                    ? TableSchemas.checkpointed(
                            connection, jdbc, tablesOf(split), captured, style, timestampZone)
                    : TableSchemas.read(connection, jdbc, captured, style, timestampZone)
                            .overwrite(tablesOf(split));
        }
    }

    /**
     * Whether the offset is of a checkpoint of Sluice's reader, marked by {@link #SCHEMAS_KEY} or,
     * in checkpoints without that key, by Sluice's count of rows events (which only its checkpoints
     * carry, all of them with every table followed).
     */
    static boolean holdsEveryFollowedTable(BinlogOffset offset) {
        Map<String, String> keys = offset.getOffset();
        return EVERY_TABLE.equals(keys.get(SCHEMAS_KEY))
                || "true".equals(keys.get(BinlogPosition.ROWS_EVENTS_KEY));
    }

    /**
     * {@code split} as a checkpoint stores it: starting at {@code position}, with {@code schemas}
     * (every table the reader follows there) as its table schemas, marked so ({@link
     * #SCHEMAS_KEY}).
     */
    public static MySqlBinlogSplit checkpoint(
            MySqlBinlogSplit split, BinlogPosition position, TableSchemas.State schemas) {
        return checkpoint(split, position, schemas, OnDemandState.EMPTY);
    }

    /** The same, with the on-demand snapshots' state ({@link OnDemandState#KEY}) when any. */
    static MySqlBinlogSplit checkpoint(
            MySqlBinlogSplit split,
            BinlogPosition position,
            TableSchemas.State schemas,
            OnDemandState onDemand) {
        Map<String, String> offset = new HashMap<>(position.toBinlogOffset().getOffset());
        offset.put(SCHEMAS_KEY, EVERY_TABLE);
        onDemand.into(offset);
        return new MySqlBinlogSplit(
                split.splitId(),
                new BinlogOffset(offset),
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
