package io.sluice.serializers.bench;

import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.CanalEntry.Column;
import com.alibaba.otter.canal.protocol.CanalEntry.EventType;
import com.alibaba.otter.canal.protocol.CanalEntry.Header;
import com.alibaba.otter.canal.protocol.CanalEntry.Pair;
import com.alibaba.otter.canal.protocol.CanalEntry.RowChange;
import com.alibaba.otter.canal.protocol.CanalEntry.RowData;
import io.sluice.serializers.canal.CanalBinaryEncoder;
import io.sluice.serializers.canal.CanalPacketFraming;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Binary (protobuf) Canal messages: {@link CanalBinaryEncoder} against Canal 1.1.8's own path, in
 * the same run, on the same rows. Every score is per row ({@link OperationsPerInvocation}), so
 * {@code gc.alloc.rate.norm} under {@code -prof gc} is bytes allocated per row.
 *
 * <p>Canal's path is what {@code LogEventConvert} and {@code CanalMessageSerializerUtil} do with
 * values that are already Strings: protobuf builders for each Column, RowData, RowChange, Header
 * and Entry, {@code rowChange.toByteString()} into the entry's storeValue, then {@code Messages}
 * and {@code Packet} each serialized and copied into their parent. Canal's {@code updated} check
 * scans the before columns for every after column; here it gets a cheaper direct comparison, so
 * only serialization is compared.
 *
 * <p>Run (never by Surefire):
 *
 * <pre>
 * java -cp serializers/target/test-classes:serializers/target/classes:$(cat serializers/target/test.classpath) \
 *     org.openjdk.jmh.Main BinaryEncodeBenchmark -f 1 -wi 3 -i 5 -prof gc
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BinaryEncodeBenchmark {

    /** Rows encoded per invocation: a multiple of every {@link #rowsPerMessage}. */
    private static final int ROWS = 120;

    /** The rows: {@code mixedDml} (10 columns, INSERT/UPDATE/DELETE) or {@code wideInserts}. */
    @Param({"mixedDml", "wideInserts"})
    public String rows;

    /** Rows per message (one binlog rows event); mixed-DML messages group rows of one type. */
    @Param({"1", "10"})
    public int rowsPerMessage;

    private CanalBinaryEncoder encoder;
    private List<List<ChangeEvent>> messages;
    private CanalInput[] canalInputs;

    @Setup(Level.Trial)
    public void setUp() {
        encoder = new CanalBinaryEncoder();
        messages = group(source(), rowsPerMessage);
        canalInputs = new CanalInput[messages.size()];
        for (int m = 0; m < canalInputs.length; m++) {
            canalInputs[m] = new CanalInput(messages.get(m), m + 1);
            // Both sides must do the same work: the same bytes.
            byte[] ours = encoder.encode(messages.get(m), m + 1, 0);
            if (!Arrays.equals(ours, canalPacket(canalInputs[m]))) {
                throw new IllegalStateException("Sluice and Canal bytes differ for message " + m);
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void sluiceBinary(Blackhole blackhole) {
        List<List<ChangeEvent>> messages = this.messages;
        for (int m = 0, n = messages.size(); m < n; m++) {
            blackhole.consume(encoder.encode(messages.get(m), m + 1, 0));
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void canalProtobuf(Blackhole blackhole) {
        for (CanalInput input : canalInputs) {
            blackhole.consume(canalPacket(input));
        }
    }

    private List<ChangeEvent> source() {
        switch (rows) {
            case "mixedDml":
                return BenchmarkRows.mixedDml(6 * ROWS, 1);
            case "wideInserts":
                return BenchmarkRows.wideInserts(ROWS, 1);
            default:
                throw new IllegalArgumentException("Unknown rows: " + rows);
        }
    }

    /** {@link #ROWS} rows in messages of {@code size} rows of one type, types taking turns. */
    private static List<List<ChangeEvent>> group(List<ChangeEvent> source, int size) {
        Map<ChangeType, List<ChangeEvent>> byType = new EnumMap<>(ChangeType.class);
        for (ChangeEvent change : source) {
            byType.computeIfAbsent(change.type(), t -> new ArrayList<>()).add(change);
        }
        List<List<ChangeEvent>> messages = new ArrayList<>();
        int taken = 0;
        for (int chunk = 0; taken < ROWS; chunk++) {
            for (List<ChangeEvent> sameType : byType.values()) {
                int from = chunk * size;
                if (taken < ROWS && from + size <= sameType.size()) {
                    messages.add(List.copyOf(sameType.subList(from, from + size)));
                    taken += size;
                }
            }
        }
        return messages;
    }

    /** Canal's protobuf path, as in LogEventConvert and CanalMessageSerializerUtil. */
    private static byte[] canalPacket(CanalInput in) {
        RowChange.Builder rowChange = RowChange.newBuilder();
        rowChange.setIsDdl(false);
        rowChange.setEventType(in.eventType);
        for (int r = 0; r < in.before.length; r++) {
            RowData.Builder row = RowData.newBuilder();
            String[] before = in.before[r];
            String[] after = in.after[r];
            if (before != null) {
                for (int c = 0; c < before.length; c++) {
                    row.addBeforeColumns(column(in, c, before[c], false));
                }
            }
            if (after != null) {
                for (int c = 0; c < after.length; c++) {
                    boolean updated = before == null || !Objects.equals(before[c], after[c]);
                    row.addAfterColumns(column(in, c, after[c], updated));
                }
            }
            rowChange.addRowDatas(row.build());
        }
        Header.Builder header = Header.newBuilder();
        header.setVersion(1);
        header.setLogfileName(in.logfileName);
        header.setLogfileOffset(in.logfileOffset);
        header.setServerId(in.serverId);
        header.setServerenCode("UTF-8");
        header.setExecuteTime(in.executeTime);
        header.setSourceType(CanalEntry.Type.MYSQL);
        header.setEventType(in.eventType);
        header.setSchemaName(in.schemaName);
        header.setTableName(in.tableName);
        header.setEventLength(0);
        if (!in.gtid.isEmpty()) {
            header.setGtid(in.gtid);
        }
        header.addProps(
                Pair.newBuilder()
                        .setKey("rowsCount")
                        .setValue(String.valueOf(in.before.length))
                        .build());
        return CanalPacketFraming.packet(header.build(), rowChange.build(), in.batchId);
    }

    private static Column column(CanalInput in, int c, String value, boolean updated) {
        Column.Builder column = Column.newBuilder();
        column.setName(in.names[c]);
        column.setIsKey(in.keys[c]);
        column.setMysqlType(in.mysqlTypes[c]);
        column.setIndex(c);
        column.setIsNull(false);
        if (value == null) {
            column.setIsNull(true);
        } else {
            column.setValue(value);
        }
        column.setSqlType(in.sqlTypes[c]);
        column.setUpdated(updated);
        return column.build();
    }

    /** One message's data as Canal holds it: table meta and values as Strings. */
    private static final class CanalInput {
        final long batchId;
        final EventType eventType;
        final String logfileName;
        final long logfileOffset;
        final long serverId;
        final long executeTime;
        final String gtid;
        final String schemaName;
        final String tableName;
        final String[] names;
        final String[] mysqlTypes;
        final int[] sqlTypes;
        final boolean[] keys;
        final String[][] before;
        final String[][] after;

        CanalInput(List<ChangeEvent> changes, long batchId) {
            ChangeEvent first = changes.get(0);
            TableSchema schema = first.schema();
            int n = schema.columnCount();
            this.batchId = batchId;
            this.eventType = EventType.valueOf(first.type().canalNumber());
            this.logfileName = first.binlogFile();
            this.logfileOffset = first.binlogPosition();
            this.serverId = first.serverId();
            this.executeTime = first.executeTime();
            this.gtid = first.gtid();
            this.schemaName = schema.database();
            this.tableName = schema.table();
            this.names = new String[n];
            this.mysqlTypes = new String[n];
            this.sqlTypes = new int[n];
            this.keys = new boolean[n];
            for (int c = 0; c < n; c++) {
                names[c] = schema.name(c);
                mysqlTypes[c] = schema.mysqlType(c);
                sqlTypes[c] = schema.sqlType(c);
                keys[c] = schema.isKey(c);
            }
            this.before = new String[changes.size()][];
            this.after = new String[changes.size()][];
            for (int r = 0; r < changes.size(); r++) {
                before[r] = texts(changes.get(r).before());
                after[r] = texts(changes.get(r).after());
            }
        }

        private static String[] texts(RowImage image) {
            if (image == null) {
                return null;
            }
            String[] texts = new String[image.columnCount()];
            for (int c = 0; c < texts.length; c++) {
                texts[c] = image.text(c);
            }
            return texts;
        }
    }
}
