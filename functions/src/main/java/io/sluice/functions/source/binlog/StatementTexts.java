package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.AnnotateRowsEventData;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.RowsQueryEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;

import java.nio.charset.StandardCharsets;

/**
 * How the reader's event deserializer reads statement texts: MariaDB's annotate-rows and MySQL's
 * rows-query events as UTF-8 text when they are wanted, not at all otherwise. (The client's own
 * deserializers decode with the JVM's default charset.)
 */
final class StatementTexts {

    private StatementTexts() {}

    /** {@code deserializer} with the texts read ({@code include}) or passed over. */
    static EventDeserializer install(EventDeserializer deserializer, boolean include) {
        if (!include) {
            deserializer.setEventDataDeserializer(
                    EventType.ANNOTATE_ROWS, new NullEventDataDeserializer());
            deserializer.setEventDataDeserializer(
                    EventType.ROWS_QUERY, new NullEventDataDeserializer());
            return deserializer;
        }
        deserializer.setEventDataDeserializer(
                EventType.ANNOTATE_ROWS,
                in -> {
                    AnnotateRowsEventData data = new AnnotateRowsEventData();
                    data.setRowsQuery(new String(in.read(in.available()), StandardCharsets.UTF_8));
                    return data;
                });
        deserializer.setEventDataDeserializer(
                EventType.ROWS_QUERY,
                in -> {
                    RowsQueryEventData data = new RowsQueryEventData();
                    in.skip(1); // a length byte that is wrong for texts over 255 bytes
                    data.setQuery(new String(in.read(in.available()), StandardCharsets.UTF_8));
                    return data;
                });
        return deserializer;
    }
}
