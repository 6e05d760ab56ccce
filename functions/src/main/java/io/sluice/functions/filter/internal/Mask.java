package io.sluice.functions.filter.internal;

import org.apache.flink.annotation.Internal;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.sql.Types;

/** How one masked column's values are replaced: hash, truncate(N) or replace(text). */
@Internal
final class Mask implements Serializable {

    private static final long serialVersionUID = 1L;

    enum Kind {
        HASH,
        TRUNCATE,
        REPLACE
    }

    final Kind kind;
    final int length;
    final byte[] replacement;

    private Mask(Kind kind, int length, byte[] replacement) {
        this.kind = kind;
        this.length = length;
        this.replacement = replacement;
    }

    /** Parses {@code hash}, {@code truncate(N)} or {@code replace(text)}; null if none of them. */
    static Mask parse(String spec) {
        String s = spec.trim();
        String lower = s.toLowerCase(java.util.Locale.ROOT);
        if (lower.equals("hash")) {
            return new Mask(Kind.HASH, 64, null);
        }
        if (lower.startsWith("truncate(") && s.endsWith(")")) {
            String n = s.substring("truncate(".length(), s.length() - 1).trim();
            try {
                int length = Integer.parseInt(n);
                return length < 0 ? null : new Mask(Kind.TRUNCATE, length, null);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        if (lower.startsWith("replace(") && s.endsWith(")")) {
            String text = s.substring("replace(".length(), s.length() - 1);
            return new Mask(Kind.REPLACE, 0, text.getBytes(StandardCharsets.UTF_8));
        }
        return null;
    }

    /**
     * The declared type a consumer sees for a masked column: a hash is {@code char(64)}, a
     * replacement {@code varchar(n)}; a truncated value keeps the column's type.
     */
    String mysqlType(String declared) {
        switch (kind) {
            case HASH:
                return "char(64)";
            case REPLACE:
                return "varchar(" + replacement.length + ")";
            default:
                return declared;
        }
    }

    int sqlType(int declared) {
        switch (kind) {
            case HASH:
                return Types.CHAR;
            case REPLACE:
                return Types.VARCHAR;
            default:
                return declared;
        }
    }
}
