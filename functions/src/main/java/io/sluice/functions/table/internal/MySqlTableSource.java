package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.source.DataStreamScanProvider;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;

import io.sluice.functions.normalize.ChangeEventKeySelector;
import io.sluice.functions.normalize.PrimaryKeyChangeSplitter;
import io.sluice.functions.normalize.StatementPathOperator;
import io.sluice.functions.order.StatementWatermarks;
import io.sluice.functions.types.ChangeEventTypeInfo;
import io.sluice.serializers.event.ChangeEvent;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The {@code sluice-mysql} scan: the CDC source (one binlog reader for every matched table), the
 * primary-key change split, and each change as a row, at the parallelism the rest of the query runs
 * at. At the source's parallelism the rows are made chained to the source, as the YAML pipeline
 * chains its route: one subtask reads the binlog, so every binlog change already takes one path,
 * and Flink CDC reads the binlog only after a checkpoint completed behind every snapshot row. At
 * another parallelism a shuffle by table and primary key comes first (the planner would otherwise
 * rebalance round-robin). Everything after runs forward (the planner's operators take their input's
 * parallelism), so each row's changes reach the sink in binlog order. Its watermarks count
 * statements, for the order of statements in the Sluice sinks ({@link StatementWatermarks}).
 */
@Internal
public final class MySqlTableSource
        implements ScanTableSource, SupportsReadingMetadata, SupportsProjectionPushDown {

    public static final String SOURCE_NAME = "MySQL CDC source";

    private final Source<ChangeEvent, ?, ?> source;
    private final Integer sourceParallelism;
    private final String tableName;
    private final String server;

    /** The table's 'server-id' if set; unset, its source drew ids of its own. */
    @Nullable private final String serverId;

    private boolean withChange = true;
    private List<SourceMetadata> metadata = new ArrayList<>();
    private DataType producedType;

    public MySqlTableSource(
            Source<ChangeEvent, ?, ?> source,
            Integer sourceParallelism,
            String tableName,
            String server,
            @Nullable String serverId,
            DataType producedType) {
        this.source = source;
        this.sourceParallelism = sourceParallelism;
        this.tableName = tableName;
        this.server = server;
        this.serverId = serverId;
        this.producedType = producedType;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        // Each change is one appended row; its kind lives in the 'type' column.
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        TypeInformation<RowData> rowType = context.createTypeInformation(producedType);
        ChangeRowConverter converter = new ChangeRowConverter(withChange, metadata);
        return new DataStreamScanProvider() {
            @Override
            public DataStream<RowData> produceDataStream(
                    ProviderContext provider, StreamExecutionEnvironment env) {
                if (serverId != null) {
                    Translation.of(env).readers().claim(server, serverId, tableName);
                }
                SingleOutputStreamOperator<ChangeEvent> changes =
                        env.fromSource(source, StatementWatermarks.strategy(), SOURCE_NAME)
                                .name(SOURCE_NAME + " " + tableName);
                provider.generateUid("sluice-mysql-source").ifPresent(changes::uid);
                if (sourceParallelism != null) {
                    changes.setParallelism(sourceParallelism);
                }
                SingleOutputStreamOperator<ChangeEvent> split =
                        changes.flatMap(new PrimaryKeyChangeSplitter())
                                .returns(new ChangeEventTypeInfo())
                                .name("Split primary-key changes")
                                .setParallelism(changes.getParallelism());
                provider.generateUid("split-key-changes").ifPresent(split::uid);
                // The query runs at the environment's parallelism (the planner sets it from
                // table.exec.resource.default-parallelism before translating).
                boolean chained = split.getParallelism() == env.getParallelism();
                DataStream<ChangeEvent> toRows =
                        chained ? split : split.keyBy(new ChangeEventKeySelector(), Types.INT);
                SingleOutputStreamOperator<RowData> rows =
                        toRows.transform(
                                "Changes as rows of " + tableName,
                                rowType,
                                new StatementPathOperator<>(converter, !chained));
                provider.generateUid("change-rows").ifPresent(rows::uid);
                return rows;
            }

            @Override
            public boolean isBounded() {
                return false;
            }
        };
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        Map<String, DataType> all = new LinkedHashMap<>();
        for (SourceMetadata m : SourceMetadata.values()) {
            all.put(m.key(), m.type());
        }
        return all;
    }

    @Override
    public void applyReadableMetadata(List<String> keys, DataType producedDataType) {
        List<SourceMetadata> used = new ArrayList<>(keys.size());
        keys.forEach(key -> used.add(SourceMetadata.of(key)));
        this.metadata = used;
        this.producedType = producedDataType;
    }

    /**
     * Only the metadata columns a query uses are computed. The planner still reuses one source (one
     * binlog reader) for every scan of a table in a statement set: it reads the union of the
     * columns the scans use.
     */
    @Override
    public boolean supportsMetadataProjection() {
        return true;
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(int[][] projectedFields, DataType producedDataType) {
        // The one physical column is the change: kept or dropped.
        this.withChange = projectedFields.length > 0;
        this.producedType = producedDataType;
    }

    @Override
    public DynamicTableSource copy() {
        MySqlTableSource copy =
                new MySqlTableSource(
                        source, sourceParallelism, tableName, server, serverId, producedType);
        copy.withChange = withChange;
        copy.metadata = new ArrayList<>(metadata);
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "sluice-mysql";
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof MySqlTableSource)) {
            return false;
        }
        MySqlTableSource that = (MySqlTableSource) o;
        return withChange == that.withChange
                && tableName.equals(that.tableName)
                && Objects.equals(sourceParallelism, that.sourceParallelism)
                && metadata.equals(that.metadata)
                && producedType.equals(that.producedType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tableName, withChange, metadata);
    }
}
