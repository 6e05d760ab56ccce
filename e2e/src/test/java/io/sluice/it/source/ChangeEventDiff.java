package io.sluice.it.source;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * Every field of two lists of change events compared one by one: the differences, each naming the
 * event's index, table and key and the field ({@code type}, {@code binlogPosition}, {@code column
 * c_date mysqlType}, {@code after c_date}, {@code updated c_date}, …).
 */
final class ChangeEventDiff {

    private ChangeEventDiff() {}

    /** One field that differs; a value of null is SQL NULL or an absent image. */
    record Difference(
            int index, String table, String key, String field, String left, String right) {

        /** The column a value field is of ({@code after c_date} → c_date), or "" for others. */
        String column() {
            int space = field.indexOf(' ');
            return field.startsWith("before ")
                            || field.startsWith("after ")
                            || field.startsWith("updated ")
                    ? field.substring(space + 1)
                    : "";
        }

        @Override
        public String toString() {
            return String.format(
                    "event %d (%s, key %s): %s is %s in the Flink CDC reader's, %s in Sluice's",
                    index, table, key, field, quoted(left), quoted(right));
        }

        private static String quoted(String value) {
            return value == null ? "NULL" : "'" + value + "'";
        }
    }

    /** The differences of {@code left} and {@code right}, event by event, then their sizes. */
    static List<Difference> of(List<ChangeEvent> left, List<ChangeEvent> right) {
        List<Difference> differences = new ArrayList<>();
        for (int i = 0; i < Math.min(left.size(), right.size()); i++) {
            compare(i, left.get(i), right.get(i), differences);
        }
        if (left.size() != right.size()) {
            differences.add(
                    new Difference(
                            Math.min(left.size(), right.size()),
                            "",
                            "",
                            "event count",
                            String.valueOf(left.size()),
                            String.valueOf(right.size())));
        }
        return differences;
    }

    private static void compare(int i, ChangeEvent l, ChangeEvent r, List<Difference> out) {
        Fields fields = new Fields(i, l.table(), key(l), out);
        fields.check("type", l.type(), r.type());
        fields.check("database", l.database(), r.database());
        fields.check("table", l.table(), r.table());
        fields.check("isDdl", l.isDdl(), r.isDdl());
        fields.check("sql", l.sql(), r.sql());
        fields.check("query", l.query(), r.query());
        fields.check("executeTime", l.executeTime(), r.executeTime());
        fields.check("gtid", l.gtid(), r.gtid());
        fields.check("transactionId", l.transactionId(), r.transactionId());
        fields.check("binlogFile", l.binlogFile(), r.binlogFile());
        fields.check("binlogPosition", l.binlogPosition(), r.binlogPosition());
        fields.check("rowInEvent", l.rowInEvent(), r.rowInEvent());
        fields.check("serverId", l.serverId(), r.serverId());
        TableSchema ls = l.schema();
        TableSchema rs = r.schema();
        fields.check("columnCount", ls.columnCount(), rs.columnCount());
        if (ls.columnCount() != rs.columnCount()) {
            fields.check("columns", names(ls), names(rs));
            return;
        }
        for (int c = 0; c < ls.columnCount(); c++) {
            fields.check("column " + c + " name", ls.name(c), rs.name(c));
            String column = "column " + ls.name(c);
            fields.check(column + " mysqlType", ls.mysqlType(c), rs.mysqlType(c));
            fields.check(column + " sqlType", ls.sqlType(c), rs.sqlType(c));
            fields.check(column + " key", ls.isKey(c), rs.isKey(c));
            fields.check("before " + ls.name(c), text(l.before(), c), text(r.before(), c));
            fields.check("after " + ls.name(c), text(l.after(), c), text(r.after(), c));
            fields.check("updated " + ls.name(c), l.isUpdated(c), r.isUpdated(c));
        }
    }

    /** The event's key columns as {@code id=12}, or its statement for one. */
    static String key(ChangeEvent event) {
        if (!event.isRow()) {
            return "[" + event.sql() + "]";
        }
        StringJoiner key = new StringJoiner(",");
        for (int c : event.schema().keyColumns()) {
            key.add(event.schema().name(c) + "=" + text(event.data(), c));
        }
        return key.toString();
    }

    private static String text(RowImage image, int column) {
        return image == null || image.isNull(column) ? null : image.text(column);
    }

    private static String names(TableSchema schema) {
        StringJoiner names = new StringJoiner(", ");
        for (int c = 0; c < schema.columnCount(); c++) {
            names.add(schema.name(c));
        }
        return names.toString();
    }

    /** Adds a difference for each field whose values differ. */
    private record Fields(int index, String table, String key, List<Difference> out) {
        void check(String field, Object left, Object right) {
            if (!Objects.equals(left, right)) {
                out.add(
                        new Difference(
                                index,
                                table,
                                key,
                                field,
                                left == null ? null : left.toString(),
                                right == null ? null : right.toString()));
            }
        }
    }
}
