package io.sluice.serializers.internal;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class DecimalDigitsTest {

    @Test
    void writesWhatLongToStringWrites() {
        List<Long> values = new ArrayList<>(List.of(0L, Long.MAX_VALUE, Long.MIN_VALUE));
        long power = 1;
        for (int digits = 1; digits <= 19; digits++) {
            for (long near : new long[] {power - 1, power, power + 1}) {
                values.add(near);
                values.add(-near);
            }
            power *= 10; // overflows after 10^18; that last value is only used as a test input
        }
        for (long edge : new long[] {Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            values.add(edge - 1);
            values.add(edge);
            values.add(edge + 1);
        }
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            values.add(random.nextLong() >> random.nextInt(64));
        }
        for (long value : values) {
            assertThat(written(value)).as("digits of %d", value).isEqualTo(Long.toString(value));
        }
    }

    @Test
    void writesAtThePositionAndReturnsTheEnd() {
        byte[] out = new byte[4 + DecimalDigits.MAX_LENGTH];
        out[3] = 'x';
        int end = DecimalDigits.write(-1234567890123L, out, 4);
        assertThat(end).isEqualTo(4 + 14);
        assertThat(new String(out, 4, end - 4, StandardCharsets.US_ASCII))
                .isEqualTo("-1234567890123");
        assertThat(out[3]).isEqualTo((byte) 'x');
    }

    @Test
    void countsDigits() {
        assertThat(DecimalDigits.digits(0)).isEqualTo(1);
        assertThat(DecimalDigits.digits(9)).isEqualTo(1);
        assertThat(DecimalDigits.digits(10)).isEqualTo(2);
        assertThat(DecimalDigits.digits(999_999_999_999_999_999L)).isEqualTo(18);
        assertThat(DecimalDigits.digits(1_000_000_000_000_000_000L)).isEqualTo(19);
        assertThat(DecimalDigits.digits(Long.MAX_VALUE)).isEqualTo(19);
    }

    private static String written(long value) {
        byte[] out = new byte[DecimalDigits.MAX_LENGTH];
        int end = DecimalDigits.write(value, out, 0);
        return new String(out, 0, end, StandardCharsets.US_ASCII);
    }
}
