package io.sluice.functions.source.binlog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.MySqlSource;
import org.apache.flink.cdc.connectors.mysql.source.assigners.state.PendingSplitsState;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;

import io.sluice.functions.source.internal.DelegatingSource;
import io.sluice.serializers.event.ChangeEvent;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

/**
 * Flink CDC's {@link MySqlSource} (its split enumerator, enumerator checkpoint and split
 * serializer, reached through the public {@code Source} interface) with Sluice's source reader
 * ({@link BinlogSourceReader}) for the binlog split; with a snapshot first, Flink CDC's reader
 * reads the snapshot splits ({@link SnapshotThenBinlogReader}). The splits and their serialized
 * form are Flink CDC's, so a savepoint moves between this source and Flink CDC's own reader at the
 * same position.
 */
@Internal
public final class BinlogSource
        extends DelegatingSource<ChangeEvent, MySqlSplit, PendingSplitsState> {

    private static final long serialVersionUID = 1L;

    private final MySqlSource<ChangeEvent> flinkCdc;
    private final ZoneId timestampZone;
    private final Duration heartbeatInterval;
    private final List<String> databases;
    private final boolean snapshotFirst;

    private BinlogSource(
            MySqlSource<ChangeEvent> flinkCdc,
            ZoneId timestampZone,
            Duration heartbeatInterval,
            List<String> databases,
            boolean snapshotFirst) {
        super(flinkCdc);
        this.flinkCdc = flinkCdc;
        this.timestampZone = timestampZone;
        this.heartbeatInterval = heartbeatInterval;
        this.databases = List.copyOf(databases);
        this.snapshotFirst = snapshotFirst;
    }

    /**
     * @param flinkCdc the source whose enumerator and configuration this takes
     * @param timestampZone the zone TIMESTAMP values are written in
     * @param heartbeatInterval how often an idle server sends a heartbeat
     * @param databases regexes of the databases whose CREATE, ALTER and DROP DATABASE statements
     *     are emitted (none without schema changes)
     * @param snapshotFirst whether the enumerator hands out snapshot splits before the binlog split
     *     (startup mode initial)
     */
    public static BinlogSource of(
            MySqlSource<ChangeEvent> flinkCdc,
            ZoneId timestampZone,
            Duration heartbeatInterval,
            List<String> databases,
            boolean snapshotFirst) {
        return new BinlogSource(
                flinkCdc, timestampZone, heartbeatInterval, databases, snapshotFirst);
    }

    @Override
    public SourceReader<ChangeEvent, MySqlSplit> createReader(SourceReaderContext context)
            throws Exception {
        int subtask = context.getIndexOfSubtask();
        BinlogSourceReader binlog =
                new BinlogSourceReader(
                        context,
                        flinkCdc.getConfigFactory().createConfig(subtask),
                        timestampZone,
                        heartbeatInterval,
                        databases);
        return snapshotFirst
                ? new SnapshotThenBinlogReader(flinkCdc.createReader(context), binlog)
                : binlog;
    }
}
