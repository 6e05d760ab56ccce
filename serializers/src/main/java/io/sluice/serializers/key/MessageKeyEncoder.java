package io.sluice.serializers.key;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The message key of a row change: the JSON array {@code ["database","table",pk1,...]} of the
 * primary-key values in key order. It names the table, so log compaction stays right on a topic
 * shared by several tables; a table without a primary key gets no key (null).
 *
 * <p>Canal writes no key at all, which breaks compaction; this is Sluice's documented choice.
 * Reuses its buffer: one instance per thread.
 */
public final class MessageKeyEncoder {

    private static final JsonFactory JSON = new JsonFactory();

    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(64);

    /** The key of {@code change}'s row (before image for DELETE), or null without primary key. */
    public byte[] keyOf(ChangeEvent change) {
        RowImage row = change.data();
        return row == null ? null : keyOf(change.schema(), row);
    }

    /** The key of one image of a row of {@code schema}, or null without primary key. */
    public byte[] keyOf(TableSchema schema, RowImage row) {
        if (schema.keyColumnCount() == 0) {
            return null;
        }
        buffer.reset();
        try (JsonGenerator json = JSON.createGenerator(buffer, JsonEncoding.UTF8)) {
            json.writeStartArray();
            json.writeString(schema.database());
            json.writeString(schema.table());
            for (int k = 0; k < schema.keyColumnCount(); k++) {
                int column = schema.keyColumn(k);
                if (row.isNull(column)) {
                    json.writeNull();
                } else {
                    json.writeUTF8String(row.utf8(), row.start(column), row.length(column));
                }
            }
            json.writeEndArray();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the key of a row of " + schema, e);
        }
        return buffer.toByteArray();
    }
}
