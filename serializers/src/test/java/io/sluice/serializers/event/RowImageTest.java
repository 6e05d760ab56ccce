package io.sluice.serializers.event;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RowImageTest {

    @Test
    void holdsTextNumbersNullsAndBytes() {
        byte[] blob = {0, 'a', (byte) 0x80, (byte) 0xff};
        RowImage image =
                new RowImage.Builder(4, 2)
                        .append(42L)
                        .append(Long.MIN_VALUE)
                        .appendNull()
                        .append("café 😀")
                        .append("")
                        .appendLatin1(blob, 0, blob.length)
                        .build();

        assertThat(image.columnCount()).isEqualTo(6);
        assertThat(image.text(0)).isEqualTo("42");
        assertThat(image.text(1)).isEqualTo("-9223372036854775808");
        assertThat(image.isNull(2)).isTrue();
        assertThat(image.text(2)).isNull();
        assertThat(image.length(2)).isZero();
        assertThat(image.text(3)).isEqualTo("café 😀");
        assertThat(image.isNull(4)).isFalse();
        assertThat(image.text(4)).isEmpty();
        assertThat(image.text(5)).isEqualTo(new String(blob, StandardCharsets.ISO_8859_1));
    }

    @Test
    void encodesTextAsStringGetBytesDoesWhetherGivenAStringOrABuilder() {
        String[] values = {
            "",
            "plain ascii",
            "café",
            "😀 emoji",
            "ℤ",
            "lone \ud800 high",
            "lone \udc00 low",
            "end \ud83d"
        };
        for (String value : values) {
            byte[] expected = value.getBytes(StandardCharsets.UTF_8);
            RowImage fromString = new RowImage.Builder(1, 1).append(value).build();
            RowImage fromBuilder =
                    new RowImage.Builder(1, 1).append(new StringBuilder(value)).build();

            assertThat(fromString.utf8()).as("String %s", value).isEqualTo(expected);
            assertThat(fromBuilder.utf8()).as("StringBuilder %s", value).isEqualTo(expected);
        }
    }

    @Test
    void hashesLikeJavaStrings() {
        String[] values = {"", "1", "shop", "café", "😀 emoji", "\u0000\u00ff", "ℤ"};
        RowImage.Builder builder = new RowImage.Builder();
        for (String value : values) {
            builder.append(value);
        }
        RowImage image = builder.appendNull().build();

        for (int i = 0; i < values.length; i++) {
            assertThat(image.javaHashCode(i)).as(values[i]).isEqualTo(values[i].hashCode());
        }
        assertThat(image.javaHashCode(values.length)).isEqualTo("".hashCode());
    }

    @Test
    void comparesValuesPerColumn() {
        RowImage a = new RowImage.Builder().append("x").appendNull().append(1).build();
        RowImage b = new RowImage.Builder().append("x").appendNull().append(2).build();
        RowImage c = new RowImage.Builder().append("").append("").append(1).build();

        assertThat(a.sameValue(b, 0)).isTrue();
        assertThat(a.sameValue(b, 1)).isTrue();
        assertThat(a.sameValue(b, 2)).isFalse();
        assertThat(a.sameValue(c, 1)).as("NULL differs from empty").isFalse();
    }

    @Test
    void rebuildsFromItsArrays() {
        RowImage image = new RowImage.Builder().append("a").appendNull().append("bc").build();

        assertThat(RowImage.of(image.utf8(), image.ends())).isEqualTo(image);
        assertThatThrownBy(() -> RowImage.of(new byte[2], new int[] {3}))
                .hasMessageContaining("bad end offset 3");
    }
}
