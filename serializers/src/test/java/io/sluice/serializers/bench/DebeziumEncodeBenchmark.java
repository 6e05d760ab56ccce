package io.sluice.serializers.bench;

import io.sluice.serializers.canal.CanalFlatEncoder;
import io.sluice.serializers.debezium.DebeziumJsonEncoder;
import io.sluice.serializers.debezium.DebeziumJsonSettings;
import io.sluice.serializers.event.ChangeEvent;
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
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * debezium-json beside canal-flat, per row, from the same change events: {@link
 * DebeziumJsonEncoder}'s key and value (with and without the JSON schema) against {@link
 * CanalFlatEncoder}'s value. Run with {@code -prof gc} for bytes allocated per row.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DebeziumEncodeBenchmark {

    static final int ROWS = 1000;

    /** {@code mixedDml}: ~10 columns, INSERT/UPDATE/DELETE mix; {@code wide}: 60-column INSERTs. */
    @Param({"mixedDml", "wide"})
    public String rows;

    private List<ChangeEvent> changes;
    private final List<ChangeEvent> one = new ArrayList<>(1);
    private CanalFlatEncoder canal;
    private DebeziumJsonEncoder withSchemas;
    private DebeziumJsonEncoder payloadOnly;

    @Setup
    public void setUp() {
        changes =
                rows.equals("wide")
                        ? BenchmarkRows.wideInserts(ROWS, 7)
                        : BenchmarkRows.mixedDml(ROWS, 7);
        canal = new CanalFlatEncoder();
        withSchemas = new DebeziumJsonEncoder(DebeziumJsonSettings.defaults("bench"));
        payloadOnly =
                new DebeziumJsonEncoder(new DebeziumJsonSettings("bench", false, true, "UTC"));
        one.clear();
        one.add(null);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void canalFlat(Blackhole out) {
        long now = System.currentTimeMillis();
        for (int i = 0; i < ROWS; i++) {
            one.set(0, changes.get(i));
            out.consume(canal.encode(one, i, now));
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void debeziumWithSchemas(Blackhole out) {
        encode(withSchemas, out);
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void debeziumPayloadOnly(Blackhole out) {
        encode(payloadOnly, out);
    }

    private void encode(DebeziumJsonEncoder encoder, Blackhole out) {
        long now = System.currentTimeMillis();
        for (int i = 0; i < ROWS; i++) {
            ChangeEvent change = changes.get(i);
            out.consume(encoder.key(change));
            out.consume(encoder.value(change, now));
        }
    }
}
