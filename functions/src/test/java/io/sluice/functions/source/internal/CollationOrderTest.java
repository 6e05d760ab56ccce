package io.sluice.functions.source.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CollationOrderTest {

    /**
     * A small case-insensitive collation in two-byte weights: letters by their upper case, 'ß' as
     * "SS", NUL ignorable (no weight), everything else by its code point.
     */
    private static byte[][] caseInsensitive() {
        byte[][] weights = new byte[0x10000][];
        for (int cp = 0; cp < weights.length; cp++) {
            weights[cp] = two(Character.toUpperCase(cp));
        }
        weights[0xDF] = new byte[] {0, 'S', 0, 'S'};
        weights[0] = new byte[0];
        return weights;
    }

    private static byte[] two(int weight) {
        return new byte[] {(byte) (weight >> 8), (byte) weight};
    }

    private static CollationOrder order(boolean padSpace) {
        return CollationOrder.of("test_ci", caseInsensitive(), padSpace, NONE);
    }

    private static final Function<int[], byte[][]> NONE =
            codePoints -> {
                throw new AssertionError("no characters beyond U+FFFF expected");
            };

    @Test
    void keysAreTheCharactersWeightsOneAfterTheOther() {
        CollationOrder order = order(false);
        assertThat(order.key("aB").toString()).isEqualTo("0x00410042");
        assertThat(order.key("\u00DF").toString()).isEqualTo("0x00530053");
        assertThat(order.key("").toString()).isEqualTo("0x");
        // Case-insensitive: 'a' is below 'M', where Java's order puts it above.
        assertThat("a".compareTo("M")).isPositive();
        assertThat(order.compare("a", "M")).isNegative();
        assertThat(order.compare("apple", "APPLE")).isZero();
        assertThat(order.compare("\u00DF", "ss")).isZero();
        assertThat(order.compare("a\u0000b", "ab")).isZero();
        assertThat(order.compare("", "a")).isNegative();
    }

    @Test
    void padSpaceIgnoresTrailingSpacesAndPadsTheShorterKey() {
        CollationOrder pad = order(true);
        assertThat(pad.isPadSpace()).isTrue();
        assertThat(pad.compare("a", "a   ")).isZero();
        assertThat(pad.key("a  ").toString()).isEqualTo("0x0041");
        assertThat(pad.key("a  ")).isEqualTo(pad.key("A"));
        assertThat(pad.key("a  ").hashCode()).isEqualTo(pad.key("A").hashCode());
        assertThat(pad.compare("", "   ")).isZero();
        // 'a' is 'a ' padded: a tab (below the space) after it sorts first, a '!' after it last.
        assertThat(pad.compare("a\t", "a")).isNegative();
        assertThat(pad.compare("a", "a\t")).isPositive();
        assertThat(pad.compare("a!", "a")).isPositive();
        assertThat(pad.compare("a \t", "a")).isNegative();
        assertThat(pad.compare("a", "ab")).isNegative();
    }

    /**
     * With contractions, only strings of the proven characters (here ASCII) take the table; any
     * other string's key is the server's whole-string weights (here a contraction "l·l" as "ll",
     * the weights keeping trailing spaces as MariaDB's do), asked once while it stays cached.
     */
    @Test
    void stringsOfUnprovenCharactersAreWeighedByTheServerOnceWhileCached() {
        BitSet ascii = new BitSet();
        ascii.set(0, 0x80);
        List<String> asked = new ArrayList<>();
        CollationOrder order =
                order(true)
                        .withServer(
                                ascii,
                                text -> {
                                    asked.add(text);
                                    return weights(text.replace("l\u00B7l", "ll"));
                                });
        assertThat(order.weighsOnServer()).isTrue();
        assertThat(order.compare("la", "ll")).isNegative();
        assertThat(asked).as("ASCII strings take the table").isEmpty();
        // The table would put l·l (the dot weighs 0x00B7, below 'L') before "la".
        assertThat(order.compare("l\u00B7l", "la")).isPositive();
        assertThat(order.compare("l\u00B7l  ", "LL")).isZero();
        assertThat(order.compare("l\u00B7l\t", "LL")).isNegative();
        assertThat(order.key("l\u00B7l  ").toString()).isEqualTo("0x004C004C");
        assertThat(asked).containsExactly("l\u00B7l", "l\u00B7l  ", "l\u00B7l\t");

        for (int i = 3; i < CollationOrder.CACHED; i++) {
            order.key("\u00E9" + i);
        }
        order.key("l\u00B7l\t");
        assertThat(asked).as("kept: the cache is full, not beyond").hasSize(CollationOrder.CACHED);
        order.key("\u00E9");
        order.key("l\u00B7l\t");
        assertThat(asked).as("the last used is kept").hasSize(CollationOrder.CACHED + 1);
        order.key("l\u00B7l");
        assertThat(asked)
                .as("the least recently used is dropped")
                .hasSize(CollationOrder.CACHED + 2)
                .endsWith("l\u00B7l");
    }

    /** The test collation's weights of each character, spaces included, as a server gives them. */
    private static byte[] weights(String text) {
        byte[][] table = caseInsensitive();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        text.codePoints().forEach(cp -> out.writeBytes(table[cp]));
        return out.toByteArray();
    }

    @Test
    void noPadCountsTrailingSpacesAndPutsAPrefixFirst() {
        CollationOrder noPad = order(false);
        assertThat(noPad.isPadSpace()).isFalse();
        assertThat(noPad.compare("a", "a ")).isNegative();
        assertThat(noPad.compare("a\t", "a")).isPositive();
        assertThat(noPad.compare("a\t", "a ")).isNegative();
    }

    @Test
    void charactersBeyondTheBmpAreFetchedOnceWhenFirstSeen() {
        List<String> asked = new ArrayList<>();
        CollationOrder order =
                CollationOrder.of(
                        "test_ci",
                        caseInsensitive(),
                        true,
                        codePoints -> {
                            byte[][] weights = new byte[codePoints.length][];
                            StringBuilder seen = new StringBuilder();
                            for (int i = 0; i < codePoints.length; i++) {
                                seen.append(Integer.toHexString(codePoints[i])).append(' ');
                                weights[i] = two(0xFFFD);
                            }
                            asked.add(seen.toString().trim());
                            return weights;
                        });
        String grin = new String(Character.toChars(0x1F600));
        String cjk = new String(Character.toChars(0x20000));
        assertThat(order.key("a" + grin + cjk + grin).toString()).isEqualTo("0x0041FFFDFFFDFFFD");
        assertThat(order.compare(grin, cjk)).isZero();
        assertThat(order.compare(grin, "\uFFFF")).isNegative();
        assertThat(asked).containsExactly("1f600 20000");
    }

    @Test
    void weightsThatDoNotLineUpWithTheSpaceAreRefusedUnderPadSpace() {
        byte[][] weights = caseInsensitive();
        weights['x'] = new byte[] {0x7f};
        assertThatThrownBy(() -> CollationOrder.of("odd_ci", weights, true, NONE))
                .hasMessageContaining("Collation odd_ci pads with the space's weight 0x0020")
                .hasMessageContaining("U+0078 weighs 0x7F");
        assertThat(CollationOrder.of("odd_nopad_ci", weights, false, NONE).compare("x", "y"))
                .isPositive();
    }

    @Test
    void aLoneSurrogateIsRefused() {
        assertThatThrownBy(() -> order(true).key("a\uD800"))
                .hasMessageContaining("lone surrogate U+D800 at 1");
    }
}
