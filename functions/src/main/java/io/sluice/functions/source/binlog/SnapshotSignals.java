package io.sluice.functions.source.binlog;

import io.debezium.document.Array;
import io.debezium.document.Document;
import io.debezium.document.DocumentReader;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.TableSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The signal table ({@code source.signal.table}), Debezium's way to ask a running connector for a
 * snapshot: an INSERT of {@code (id, type, data)}, read from the binlog in its order. Type {@code
 * execute-snapshot} with data {@code {"data-collections": ["db.table", …], "additional-condition":
 * "…"}} (or Debezium 2's {@code "additional-conditions": [{"data-collection": "db.table", "filter":
 * "…"}]}) asks for each table; {@code stop-snapshot} drops the named tables' snapshots, or all
 * without {@code data-collections}. Other types and rows that cannot be read are logged and passed
 * over.
 */
final class SnapshotSignals {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotSignals.class);

    /** A signal read. */
    static final class Signal {
        private final String id;
        private final boolean stop;
        private final List<String> tables;
        private final Map<String, String> conditions;

        Signal(String id, boolean stop, List<String> tables, Map<String, String> conditions) {
            this.id = id;
            this.stop = stop;
            this.tables = tables;
            this.conditions = conditions;
        }

        String id() {
            return id;
        }

        boolean isStop() {
            return stop;
        }

        /** The tables named, as database.table; empty for every one (a stop). */
        List<String> tables() {
            return tables;
        }

        @Nullable
        String condition(String table) {
            return conditions.get(table);
        }
    }

    private final String database;
    private final String table;

    private SnapshotSignals(String database, String table) {
        this.database = database;
        this.table = table;
    }

    /**
     * @param name the signal table as {@code database.table}
     * @param optionKey the option that names it, for the message
     * @throws IllegalArgumentException if {@code name} is not {@code database.table}
     */
    static SnapshotSignals of(String name, String optionKey) {
        int dot = name.indexOf('.');
        if (dot <= 0 || dot == name.length() - 1 || name.indexOf('.', dot + 1) >= 0) {
            throw new IllegalArgumentException(
                    String.format(
                            "'%s' names the signal table as database.table, e.g."
                                    + " inventory.sluice_signal; got '%s'",
                            optionKey, name));
        }
        return new SnapshotSignals(name.substring(0, dot), name.substring(dot + 1));
    }

    String name() {
        return database + "." + table;
    }

    boolean isSignal(ChangeEvent change) {
        TableSchema schema = change.schema();
        return schema.table().equals(table) && schema.database().equals(database);
    }

    /** The signal an INSERT carries, or null (logged) when it is none this reader takes. */
    @Nullable
    Signal read(ChangeEvent insert) {
        TableSchema schema = insert.schema();
        String id = null;
        String type = null;
        String data = null;
        for (int i = 0; i < schema.columnCount(); i++) {
            String column = schema.name(i).toLowerCase(Locale.ROOT);
            String value = insert.after().isNull(i) ? null : insert.after().text(i);
            switch (column) {
                case "id":
                    id = value;
                    break;
                case "type":
                    type = value;
                    break;
                case "data":
                    data = value;
                    break;
                default:
                    break;
            }
        }
        if (id == null || type == null) {
            LOG.warn("A row of the signal table {} without id or type: passed over", name());
            return null;
        }
        boolean stop;
        switch (type.trim().toLowerCase(Locale.ROOT)) {
            case "execute-snapshot":
                stop = false;
                break;
            case "stop-snapshot":
                stop = true;
                break;
            default:
                LOG.warn("Signal {} of type '{}' is not one Sluice takes: passed over", id, type);
                return null;
        }
        List<String> tables = new ArrayList<>();
        Map<String, String> conditions = new HashMap<>();
        if (data != null && !data.isBlank()) {
            Document document;
            try {
                document = DocumentReader.defaultReader().read(data);
            } catch (IOException | RuntimeException e) {
                LOG.warn("Signal {}: its data is not JSON ({}): passed over", id, e.toString());
                return null;
            }
            Array collections = document.getArray("data-collections");
            if (collections != null) {
                for (Array.Entry entry : collections) {
                    tables.add(entry.getValue().asString());
                }
            }
            String condition = document.getString("additional-condition");
            if (condition != null) {
                for (String name : tables) {
                    conditions.put(name, condition);
                }
            }
            Array perTable = document.getArray("additional-conditions");
            if (perTable != null) {
                for (Array.Entry item : perTable) {
                    Document entry = item.getValue().asDocument();
                    conditions.put(entry.getString("data-collection"), entry.getString("filter"));
                }
            }
        }
        if (!stop && tables.isEmpty()) {
            LOG.warn(
                    "Signal {} asks for a snapshot of no table (data-collections): passed over",
                    id);
            return null;
        }
        return new Signal(id, stop, tables, conditions);
    }
}
