package io.sluice.functions.source.binlog;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.cdc.connectors.mysql.source.MySqlSource;
import org.apache.flink.cdc.connectors.mysql.source.assigners.state.PendingSplitsState;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;

import io.sluice.functions.source.internal.DelegatingSource;
import io.sluice.functions.source.internal.SourceProgress;
import io.sluice.functions.source.internal.StallWatchingSourceReader;
import io.sluice.serializers.event.ChangeEvent;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

/**
 * Flink CDC's {@link MySqlSource} (its split enumerator, enumerator checkpoint and split
 * serializer, reached through the public {@code Source} interface) with Sluice's source reader
 * ({@link BinlogSourceReader}) for the binlog split. The splits and their serialized form are Flink
 * CDC's, so a savepoint moves between this source and Flink CDC's own reader at the same position.
 */
@Internal
public final class BinlogSource
        extends DelegatingSource<ChangeEvent, MySqlSplit, PendingSplitsState> {

    private static final long serialVersionUID = 1L;

    private final MySqlSource<ChangeEvent> flinkCdc;
    private final ZoneId timestampZone;
    private final Duration heartbeatInterval;
    private final List<String> databases;
    private final Duration stallTimeout;
    private final String stallTimeoutKey;

    private BinlogSource(
            MySqlSource<ChangeEvent> flinkCdc,
            ZoneId timestampZone,
            Duration heartbeatInterval,
            List<String> databases,
            Duration stallTimeout,
            String stallTimeoutKey) {
        super(flinkCdc);
        this.flinkCdc = flinkCdc;
        this.timestampZone = timestampZone;
        this.heartbeatInterval = heartbeatInterval;
        this.databases = List.copyOf(databases);
        this.stallTimeout = stallTimeout;
        this.stallTimeoutKey = stallTimeoutKey;
    }

    /**
     * @param flinkCdc the source whose enumerator and configuration this takes
     * @param timestampZone the zone TIMESTAMP values are written in
     * @param heartbeatInterval how often an idle server sends a heartbeat
     * @param databases regexes of the databases whose CREATE, ALTER and DROP DATABASE statements
     *     are emitted (none without schema changes)
     * @param stallTimeout how long the reader may hold its split and read nothing before it fails
     *     ({@link StallWatchingSourceReader}); zero for no watch
     * @param stallTimeoutKey the timeout's option key, for the failure's message
     */
    public static BinlogSource of(
            MySqlSource<ChangeEvent> flinkCdc,
            ZoneId timestampZone,
            Duration heartbeatInterval,
            List<String> databases,
            Duration stallTimeout,
            String stallTimeoutKey) {
        return new BinlogSource(
                flinkCdc,
                timestampZone,
                heartbeatInterval,
                databases,
                stallTimeout,
                stallTimeoutKey);
    }

    @Override
    public SourceReader<ChangeEvent, MySqlSplit> createReader(SourceReaderContext context) {
        int subtask = context.getIndexOfSubtask();
        SourceProgress progress = new SourceProgress();
        BinlogSourceReader reader =
                new BinlogSourceReader(
                        context,
                        flinkCdc.getConfigFactory().createConfig(subtask),
                        timestampZone,
                        heartbeatInterval,
                        databases,
                        progress);
        return stallTimeout.isZero()
                ? reader
                : new StallWatchingSourceReader<>(
                        reader,
                        reader::assignedSplits,
                        progress,
                        stallTimeout,
                        stallTimeoutKey,
                        context);
    }
}
