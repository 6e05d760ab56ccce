package io.sluice.serializers.bench;

import io.sluice.serializers.event.RowImage;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Building the row images the source hands downstream, per row: {@link RowImage.Builder} against
 * the way it wrote numbers and text before ({@link #digitAndCharLoops}: one 64-bit division per
 * digit after a counting loop of divisions, one {@code charAt} per char), kept here as the
 * baseline. Rows are shaped like the benchmark's mixed-DML tables: three BIGINTs, a short status, a
 * name (one in ten with an accented letter), an e-mail address and a note.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class RowImageBuildBenchmark {

    static final int ROWS = 1000;

    private static final String[] STATUSES = {"new", "paid", "shipped", "done", "cancelled"};

    private long[][] numbers;
    private String[][] texts;
    private final RowImage.Builder builder = new RowImage.Builder(1024, 64);
    private byte[] buffer = new byte[1024];
    private final int[] ends = new int[7];

    @Setup
    public void setUp() {
        SplittableRandom random = new SplittableRandom(7);
        numbers = new long[ROWS][];
        texts = new String[ROWS][];
        for (int row = 0; row < ROWS; row++) {
            numbers[row] =
                    new long[] {
                        1 + random.nextLong(10_000_000L),
                        1 + random.nextLong(100_000L),
                        1_700_000_000_000L + random.nextLong(100_000_000_000L)
                    };
            String name = (row % 10 == 0 ? "Zoé " : "Zoe ") + "Customer" + random.nextInt(100_000);
            texts[row] =
                    new String[] {
                        STATUSES[random.nextInt(STATUSES.length)],
                        name,
                        "customer" + random.nextInt(100_000) + "@example.com",
                        "note " + Long.toHexString(random.nextLong()) + " for the order's packing"
                    };
        }
        RowImage ours = sluice(0);
        RowImage theirs = digitAndCharLoops(0);
        if (!ours.equals(theirs)) {
            throw new IllegalStateException("The two ways build different images: " + ours);
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void rowImageBuilder(Blackhole hole) {
        for (int row = 0; row < ROWS; row++) {
            hole.consume(sluice(row));
        }
    }

    @Benchmark
    @OperationsPerInvocation(ROWS)
    public void digitAndCharLoops(Blackhole hole) {
        for (int row = 0; row < ROWS; row++) {
            hole.consume(digitAndCharLoops(row));
        }
    }

    private RowImage sluice(int row) {
        for (long number : numbers[row]) {
            builder.append(number);
        }
        for (String text : texts[row]) {
            builder.append(text);
        }
        RowImage image = builder.build();
        // The same offset check the baseline's RowImage.of makes, so both sides pay it.
        return RowImage.of(image.utf8(), image.ends());
    }

    private RowImage digitAndCharLoops(int row) {
        int size = 0;
        int column = 0;
        for (long value : numbers[row]) {
            int digits = 1;
            for (long v = value; v >= 10; v /= 10) {
                digits++;
            }
            for (int i = size + digits - 1; i >= size; i--) {
                buffer[i] = (byte) ('0' + (value % 10));
                value /= 10;
            }
            size += digits;
            ends[column++] = size;
        }
        for (String text : texts[row]) {
            size = appendChars(text, size);
            ends[column++] = size;
        }
        return RowImage.of(Arrays.copyOf(buffer, size), Arrays.copyOf(ends, column));
    }

    /** The per-char loop: ASCII one byte per char, the rest (no surrogates here) two or three. */
    private int appendChars(CharSequence text, int size) {
        int length = text.length();
        if (size + length * 3 > buffer.length) {
            buffer = Arrays.copyOf(buffer, (size + length * 3) * 2);
        }
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                buffer[size++] = (byte) c;
            } else if (c < 0x800) {
                buffer[size++] = (byte) (0xc0 | (c >> 6));
                buffer[size++] = (byte) (0x80 | (c & 0x3f));
            } else {
                buffer[size++] = (byte) (0xe0 | (c >> 12));
                buffer[size++] = (byte) (0x80 | ((c >> 6) & 0x3f));
                buffer[size++] = (byte) (0x80 | (c & 0x3f));
            }
        }
        return size;
    }
}
