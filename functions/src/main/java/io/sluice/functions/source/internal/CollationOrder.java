package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The order of one collation whose weights are context-free: a string's weights are its characters'
 * weights one after the other (the server's {@code WEIGHT_STRING} per character), so a string's
 * sort key is built in Java and keys compare as unsigned bytes. A PAD SPACE collation compares as
 * if the shorter key went on with the space's weight; a NO PAD one puts a prefix first. Which
 * collations are such is {@link ServerCollations}'s to decide.
 *
 * <p>The weights of the Basic Multilingual Plane are given whole; those of characters beyond it are
 * fetched when a string first has them ({@code supplementary}).
 *
 * <p>A collation with contractions ({@link #withServer}) builds from its characters' weights only
 * the keys of strings made of characters proven context-free; any other string's key is the
 * server's {@code WEIGHT_STRING} of the whole string, asked once and kept in a bounded LRU cache.
 * Both are the same bytes for the proven strings, so the two kinds of keys compare with each other.
 * Used by one thread.
 */
@Internal
public final class CollationOrder {

    private static final int BMP = 0x10000;

    private final String name;

    /** The weights of BMP characters, one after the other; {@code bmpEnd[cp]} ends cp's. */
    private final byte[] bmp;

    private final int[] bmpEnd;

    /** The space's weight for PAD SPACE; null for NO PAD. */
    private final byte[] pad;

    private final Function<int[], byte[][]> supplementary;
    private final Map<Integer, byte[]> fetched = new HashMap<>();

    /** The code points whose strings take the table; null for all (no server weights). */
    private final BitSet tabled;

    /** A whole string's weights from the server; null if the table serves every string. */
    private final Function<String, byte[]> server;

    /** The server's weights of the strings asked last, least recently used first. */
    private final Map<String, byte[]> weighed;

    /** The most strings whose server weights are kept. */
    static final int CACHED = 4096;

    private CollationOrder(
            String name,
            byte[] bmp,
            int[] bmpEnd,
            byte[] pad,
            Function<int[], byte[][]> supplementary,
            BitSet tabled,
            Function<String, byte[]> server) {
        this.name = name;
        this.bmp = bmp;
        this.bmpEnd = bmpEnd;
        this.pad = pad;
        this.supplementary = supplementary;
        this.tabled = tabled;
        this.server = server;
        this.weighed =
                new LinkedHashMap<>(16, 0.75f, true) {
                    private static final long serialVersionUID = 1L;

                    @Override
                    protected boolean removeEldestEntry(Map.Entry<String, byte[]> eldest) {
                        return size() > CACHED;
                    }
                };
    }

    /**
     * @param name the collation's name, for messages
     * @param weights the weights of each BMP code point (65,536 entries; those of surrogates are
     *     not read)
     * @param padSpace whether trailing spaces are ignored (PAD SPACE)
     * @param supplementary the weights of the given code points beyond U+FFFF, in their order
     * @throws IllegalArgumentException if under PAD SPACE a weight is no whole number of space
     *     weights (the padding would not line up with the characters)
     */
    public static CollationOrder of(
            String name,
            byte[][] weights,
            boolean padSpace,
            Function<int[], byte[][]> supplementary) {
        if (weights.length != BMP) {
            throw new IllegalArgumentException(
                    "The weights of " + BMP + " code points expected, not " + weights.length);
        }
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        int[] ends = new int[BMP];
        for (int cp = 0; cp < BMP; cp++) {
            if (!Character.isSurrogate((char) cp)) {
                all.writeBytes(weights[cp]);
            }
            ends[cp] = all.size();
        }
        byte[] pad = padSpace ? weights[' '].clone() : null;
        CollationOrder order =
                new CollationOrder(name, all.toByteArray(), ends, pad, supplementary, null, null);
        for (int cp = 0; cp < BMP && padSpace; cp++) {
            if (!Character.isSurrogate((char) cp)) {
                order.checkAligned(cp, weights[cp]);
            }
        }
        return order;
    }

    /**
     * This order for a collation with contractions: only strings made of the code points in {@code
     * tabled} (proven to weigh as their characters' weights one after the other) take the table;
     * every other string's key is {@code server}'s weights of the whole string.
     */
    public CollationOrder withServer(BitSet tabled, Function<String, byte[]> server) {
        return new CollationOrder(
                name, bmp, bmpEnd, pad, supplementary, (BitSet) tabled.clone(), server);
    }

    /** Whether some strings' keys are asked of the server. */
    public boolean weighsOnServer() {
        return server != null;
    }

    public String name() {
        return name;
    }

    public boolean isPadSpace() {
        return pad != null;
    }

    /** The text's sort key; under PAD SPACE without the trailing space weights. */
    public Key key(String text) {
        if (server != null && !tabled(text)) {
            return serverKey(text);
        }
        fetchSupplementary(text);
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() * 2);
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (cp < BMP) {
                if (Character.isSurrogate((char) cp)) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "The text has the lone surrogate U+%04X at %d, which no"
                                            + " collation orders",
                                    cp, i));
                }
                int start = cp == 0 ? 0 : bmpEnd[cp - 1];
                out.write(bmp, start, bmpEnd[cp] - start);
            } else {
                out.writeBytes(fetched.get(cp));
            }
            i += Character.charCount(cp);
        }
        return trimmed(out.toByteArray());
    }

    private boolean tabled(String text) {
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (!tabled.get(cp)) {
                return false;
            }
            i += Character.charCount(cp);
        }
        return true;
    }

    private Key serverKey(String text) {
        byte[] weights = weighed.get(text);
        if (weights == null) {
            weights = server.apply(text);
            if (pad != null && weights.length % pad.length != 0) {
                throw new IllegalStateException(
                        String.format(
                                "Collation %s pads with the space's weight %s, but the server"
                                        + " weighs a string %s, no whole number of them",
                                name, hex(pad), hex(weights)));
            }
            weighed.put(text, weights);
        }
        return trimmed(weights);
    }

    /** Under PAD SPACE the key without its trailing space weights, which compares as padded. */
    private Key trimmed(byte[] weights) {
        int length = weights.length;
        while (pad != null
                && pad.length > 0
                && length >= pad.length
                && Arrays.equals(weights, length - pad.length, length, pad, 0, pad.length)) {
            length -= pad.length;
        }
        return new Key(length == weights.length ? weights : Arrays.copyOf(weights, length), pad);
    }

    /** The server's comparison of two strings of this collation: negative, zero or positive. */
    public int compare(String a, String b) {
        return key(a).compareTo(key(b));
    }

    private void fetchSupplementary(String text) {
        TreeSet<Integer> missing = null;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (cp >= BMP && !fetched.containsKey(cp)) {
                missing = missing == null ? new TreeSet<>() : missing;
                missing.add(cp);
            }
            i += Character.charCount(cp);
        }
        if (missing == null) {
            return;
        }
        int[] codePoints = missing.stream().mapToInt(Integer::intValue).toArray();
        byte[][] weights = supplementary.apply(codePoints);
        for (int i = 0; i < codePoints.length; i++) {
            checkAligned(codePoints[i], weights[i]);
            fetched.put(codePoints[i], weights[i]);
        }
    }

    private void checkAligned(int cp, byte[] weight) {
        if (pad != null && (pad.length == 0 || weight.length % pad.length != 0)) {
            throw new IllegalArgumentException(
                    String.format(
                            "Collation %s pads with the space's weight %s, but U+%04X weighs %s,"
                                    + " no whole number of them",
                            name, hex(pad), cp, hex(weight)));
        }
    }

    static String hex(byte[] bytes) {
        StringBuilder hex = new StringBuilder("0x");
        for (byte b : bytes) {
            hex.append(String.format("%02X", b & 0xff));
        }
        return hex.toString();
    }

    /**
     * A string's sort key. Under PAD SPACE the shorter key goes on with the space's weight (so a
     * trailing character that weighs less than the space sorts below the end of the string), as the
     * server's comparison does; under NO PAD a prefix sorts first.
     */
    public static final class Key implements Comparable<Key> {
        private final byte[] weights;
        private final byte[] pad;

        Key(byte[] weights, byte[] pad) {
            this.weights = weights;
            this.pad = pad;
        }

        @Override
        public int compareTo(Key other) {
            if (pad == null) {
                return Arrays.compareUnsigned(weights, other.weights);
            }
            int length = Math.max(weights.length, other.weights.length);
            for (int i = 0; i < length; i++) {
                int a = at(weights, i);
                int b = at(other.weights, i);
                if (a != b) {
                    return a - b;
                }
            }
            return 0;
        }

        private int at(byte[] of, int i) {
            return (i < of.length ? of[i] : pad[(i - of.length) % pad.length]) & 0xff;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key && compareTo((Key) other) == 0;
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(weights);
        }

        @Override
        public String toString() {
            return hex(weights);
        }
    }
}
