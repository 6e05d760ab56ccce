package io.sluice.functions.filter.internal;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Decimal text compared digit by digit with a literal, as a numeric predicate reads a row. */
class DecimalTextTest {

    @Test
    void comparesSignIntegerAndFractionDigits() {
        assertThat(compare("12.5", "12.50")).isZero();
        assertThat(compare("0012", "12")).isZero();
        assertThat(compare("-0.0", "0")).isZero();
        assertThat(compare("9.999", "10")).isNegative();
        assertThat(compare("100", "99.99")).isPositive();
        assertThat(compare("-3", "-2.5")).isNegative();
        assertThat(compare("-2", "-2.5")).isPositive();
        assertThat(compare(".5", "0.4")).isPositive();
        assertThat(compare("123456789012345678901234567890", "123456789012345678901234567889"))
                .isPositive();
    }

    @Test
    void exponentFormFallsBackToDoubleAndTextIsNoNumber() {
        assertThat(compare("1.5E3", "1500")).isZero();
        assertThat(compare("1.0E-2", "0.02")).isNegative();
        assertThat(compare("abc", "1")).isEqualTo(DecimalText.NOT_COMPARABLE);
    }

    @Test
    void onlyPlainDecimalsAreLiterals() {
        assertThat(DecimalText.parse("1e5")).isNull();
        assertThat(DecimalText.parse(".")).isNull();
        assertThat(DecimalText.parse("-")).isNull();
        assertThat(DecimalText.parse("1.2.3")).isNull();
        assertThat(DecimalText.parse("+7")).isNotNull();
    }

    private static int compare(String value, String literal) {
        byte[] row = ("xx" + value + "yy").getBytes(StandardCharsets.US_ASCII);
        return DecimalText.parse(literal).compareTo(row, 2, value.length());
    }
}
