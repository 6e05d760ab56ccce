package io.sluice.it.source;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.util.ArrayList;
import java.util.List;

/**
 * A change as the source tests compare it: table, columns with mysqlType and key, type, values; so
 * a row decoded with the wrong columns of its point in the binlog shows.
 */
final class ChangeText {

    private ChangeText() {}

    static String withColumns(ChangeEvent change) {
        TableSchema schema = change.schema();
        StringBuilder text = new StringBuilder(schema.table()).append(" (");
        for (int c = 0; c < schema.columnCount(); c++) {
            text.append(c == 0 ? "" : ", ")
                    .append(schema.name(c))
                    .append(' ')
                    .append(schema.mysqlType(c))
                    .append(schema.isKey(c) ? " key" : "");
        }
        text.append(") ").append(change.type());
        if (change.before() != null) {
            text.append(" before ").append(values(change.before()));
        }
        if (change.after() != null) {
            text.append(" after ").append(values(change.after()));
        }
        return text.toString();
    }

    private static List<String> values(RowImage image) {
        List<String> values = new ArrayList<>();
        for (int c = 0; c < image.columnCount(); c++) {
            values.add(image.isNull(c) ? null : image.text(c));
        }
        return values;
    }
}
