package io.sluice.functions.filter.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.internal.IdentityCache;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Cuts each row change down to the columns its table's plan keeps and masks the masked ones, so
 * both encoders see the reduced row and schema. A changed row also loses its statement's text: the
 * SQL would show what was cut or masked. Statements pass unchanged. One per operator instance.
 */
@Internal
public final class ColumnControl {

    private static final int MAX_CACHED = 4096;
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final FilterSettings settings;
    private final IdentityCache<TableSchema, ColumnPlan> plans;
    private final RowImage.Builder rows = new RowImage.Builder();
    private final byte[] digest = new byte[32];
    private final byte[] hex = new byte[64];
    private MessageDigest sha256;

    public ColumnControl(FilterSettings settings) {
        this.settings = settings;
        this.plans = new IdentityCache<>(MAX_CACHED, settings::planOf);
    }

    /** Whether the plan of {@code schema} keeps every column unmasked. */
    public boolean keepsAll(TableSchema schema) {
        return plans.get(schema).identity;
    }

    /** Whether an UPDATE changed none of the columns its message carries. */
    public boolean isEmptyUpdate(ChangeEvent update) {
        ColumnPlan plan = plans.get(update.schema());
        RowImage before = update.before();
        RowImage after = update.after();
        for (int c : plan.columns) {
            if (!before.sameValue(after, c)) {
                return false;
            }
        }
        return true;
    }

    /** {@code change} as its table's plan shapes it; the same instance if the plan keeps all. */
    public ChangeEvent apply(ChangeEvent change) {
        if (!change.isRow()) {
            return change;
        }
        ColumnPlan plan = plans.get(change.schema());
        if (plan.identity) {
            return change;
        }
        return ChangeEvent.builder(plan.schema, change.type())
                .before(project(plan, change.before()))
                .after(project(plan, change.after()))
                .eventOf(change)
                .build();
    }

    private RowImage project(ColumnPlan plan, RowImage row) {
        if (row == null) {
            return null;
        }
        byte[] utf8 = row.utf8();
        for (int i = 0; i < plan.columns.length; i++) {
            int c = plan.columns[i];
            Mask mask = plan.masks[i];
            if (mask == null || row.isNull(c)) {
                rows.appendColumn(row, c);
            } else {
                appendMasked(mask, utf8, row.start(c), row.length(c));
            }
        }
        return rows.build();
    }

    private void appendMasked(Mask mask, byte[] utf8, int start, int length) {
        switch (mask.kind) {
            case HASH:
                hash(utf8, start, length);
                rows.appendUtf8(hex, 0, hex.length);
                break;
            case TRUNCATE:
                rows.appendUtf8(utf8, start, prefixBytes(utf8, start, length, mask.length));
                break;
            default:
                rows.appendUtf8(mask.replacement, 0, mask.replacement.length);
        }
    }

    private void hash(byte[] utf8, int start, int length) {
        MessageDigest md = sha256();
        md.update(settings.salt);
        md.update(utf8, start, length);
        try {
            md.digest(digest, 0, digest.length);
        } catch (java.security.DigestException e) {
            throw new IllegalStateException("SHA-256 digest failed", e);
        }
        for (int i = 0; i < digest.length; i++) {
            hex[2 * i] = HEX[(digest[i] >> 4) & 0xf];
            hex[2 * i + 1] = HEX[digest[i] & 0xf];
        }
    }

    /** Bytes of the first {@code chars} characters (code points) of a UTF-8 value. */
    static int prefixBytes(byte[] utf8, int start, int length, int chars) {
        int i = start;
        int end = start + length;
        for (int n = 0; n < chars && i < end; n++) {
            int b = utf8[i] & 0xff;
            i += b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
        }
        return Math.min(i, end) - start;
    }

    private MessageDigest sha256() {
        if (sha256 == null) {
            try {
                sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("This JVM has no SHA-256", e);
            }
        }
        return sha256;
    }
}
