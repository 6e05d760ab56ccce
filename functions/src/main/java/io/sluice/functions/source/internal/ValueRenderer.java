package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.serializers.event.RowImage;

/**
 * Writes one non-null column value, as Debezium delivers it, into a row image as Canal's text. One
 * instance per column of a table version, chosen once from the declared type.
 */
@Internal
@FunctionalInterface
public interface ValueRenderer {

    /**
     * Appends {@code value}'s text as the next column of {@code out}.
     *
     * @param value the Connect value, never null
     * @param scratch a reused buffer, empty on entry, for renderers that build text in pieces
     * @throws RuntimeException (e.g. ClassCastException) if the value is not of the Java class the
     *     declared type leads to expect; the caller names the column
     */
    void render(Object value, StringBuilder scratch, RowImage.Builder out);
}
