package io.sluice.serializers.bench;

import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.connector.core.producer.MQMessageUtils;
import com.alibaba.otter.canal.connector.core.producer.MQMessageUtils.EntryRowData;
import com.alibaba.otter.canal.protocol.FlatMessage;
import io.sluice.serializers.canal.CanalFlatEncoder;
import io.sluice.serializers.canal.CanalFlatPath;
import io.sluice.serializers.canal.CanalLogEventPackets;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Sluice's {@link CanalFlatEncoder} against Canal 1.1.8's own flat path, side by side, per row.
 *
 * <p>What each side's measured method does, from the same change data:
 *
 * <ul>
 *   <li><b>sluice*</b>: {@code CanalFlatEncoder.encode} on prebuilt {@link ChangeEvent}s: input
 *       checks, JSON writing, and the exact-size copy the caller gets.
 *   <li><b>canal*</b>: Canal's own {@code MQMessageUtils.messageConverter} (connector.core: a
 *       FlatMessage with a LinkedHashMap per row for {@code data} and {@code old}, the {@code
 *       sqlType}/{@code mysqlType} maps, the {@code pkNames} list), then {@code
 *       JSON.toJSONBytes(flat, WriteNulls, LargeObject)} as {@code CanalKafkaProducer} does. The
 *       converter's input, Canal's {@code EntryRowData} (an Entry with its RowChange parsed), is
 *       built in {@link #setUp}: the entries with Canal's builders ({@link CanalLogEventPackets}),
 *       the RowChange parsed by {@code MQMessageUtils.buildMessageData}, which Canal's producer
 *       runs on its build pool just before converting. Neither that parse nor Canal's parser stage
 *       is measured, as Sluice's {@code RowImage}s are rendered before encoding.
 * </ul>
 *
 * <p>Both sides read the clock once per message for {@code ts}: Canal's converter itself, Sluice's
 * caller here. Each invocation encodes {@value #ROWS} rows, either one row per message (the common
 * case with per-key partitioning) or ten rows of one type per message, so scores are per row. Run
 * with {@code -prof gc} and read {@code gc.alloc.rate.norm} for bytes allocated per row.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class FlatEncodeBenchmark {

    /** Rows per invocation; every benchmark method encodes exactly this many. */
    static final int ROWS = 1000;

    private static final int ROWS_PER_BIG_MESSAGE = 10;

    /** {@code mixedDml}: ~10 columns, INSERT/UPDATE/DELETE mix; {@code wide}: 60-column INSERTs. */
    @Param({"mixedDml", "wide"})
    public String rows;

    private final List<List<ChangeEvent>> oneRowMessages = new ArrayList<>();
    private final List<List<ChangeEvent>> tenRowMessages = new ArrayList<>();
    private EntryRowData[][] canalOneRow;
    private EntryRowData[][] canalTenRow;
    private CanalFlatEncoder encoder;

    @Setup
    public void setUp() {
        List<ChangeEvent> changes =
                rows.equals("wide")
                        ? BenchmarkRows.wideInserts(ROWS, 7)
                        : BenchmarkRows.mixedDml(ROWS, 7);
        oneRowMessages.clear();
        tenRowMessages.clear();
        for (ChangeEvent change : changes) {
            oneRowMessages.add(List.of(change));
        }
        // A message holds rows of one type, so group by type (keeping order) before chunking.
        Map<ChangeType, List<ChangeEvent>> byType = new EnumMap<>(ChangeType.class);
        for (ChangeEvent change : changes) {
            byType.computeIfAbsent(change.type(), t -> new ArrayList<>()).add(change);
        }
        for (List<ChangeEvent> sameType : byType.values()) {
            for (int i = 0; i < sameType.size(); i += ROWS_PER_BIG_MESSAGE) {
                tenRowMessages.add(
                        List.copyOf(
                                sameType.subList(
                                        i, Math.min(i + ROWS_PER_BIG_MESSAGE, sameType.size()))));
            }
        }
        canalOneRow = toCanal(oneRowMessages);
        canalTenRow = toCanal(tenRowMessages);
        encoder = new CanalFlatEncoder();
        checkSameOutput();
    }

    /** Single-row messages are where both sides agree byte for byte: make sure they do. */
    private void checkSameOutput() {
        for (int i = 0; i < oneRowMessages.size(); i++) {
            List<FlatMessage> flats = MQMessageUtils.messageConverter(canalOneRow[i], i);
            FlatMessage canal = flats.get(0);
            byte[] sluice = encoder.encode(oneRowMessages.get(i), i, canal.getTs());
            if (flats.size() != 1 || !Arrays.equals(sluice, CanalFlatPath.toJsonBytes(canal))) {
                throw new IllegalStateException("Sluice and Canal differ on row " + i);
            }
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void sluiceOneRowPerMessage(Blackhole blackhole) {
        encodeAll(oneRowMessages, blackhole);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void canalOneRowPerMessage(Blackhole blackhole) {
        convertAll(canalOneRow, blackhole);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void sluiceTenRowsPerMessage(Blackhole blackhole) {
        encodeAll(tenRowMessages, blackhole);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void canalTenRowsPerMessage(Blackhole blackhole) {
        convertAll(canalTenRow, blackhole);
    }

    private void encodeAll(List<List<ChangeEvent>> messages, Blackhole blackhole) {
        for (int i = 0, n = messages.size(); i < n; i++) {
            blackhole.consume(encoder.encode(messages.get(i), i, System.currentTimeMillis()));
        }
    }

    private static void convertAll(EntryRowData[][] inputs, Blackhole blackhole) {
        for (int i = 0; i < inputs.length; i++) {
            for (FlatMessage flat : MQMessageUtils.messageConverter(inputs[i], i)) {
                blackhole.consume(CanalFlatPath.toJsonBytes(flat));
            }
        }
    }

    /** Canal's converter input per message: its one Entry, with the RowChange parsed. */
    private static EntryRowData[][] toCanal(List<List<ChangeEvent>> messages) {
        EntryRowData[][] inputs = new EntryRowData[messages.size()][];
        for (int i = 0; i < inputs.length; i++) {
            byte[] packet = CanalLogEventPackets.packet(messages.get(i), i);
            inputs[i] = CanalFlatPath.entryRowData(CanalMessageDeserializer.deserializer(packet));
        }
        return inputs;
    }
}
