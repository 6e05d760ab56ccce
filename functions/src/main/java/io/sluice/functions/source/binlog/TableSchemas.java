package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.debezium.connector.mysql.antlr.MySqlAntlrDdlParser;
import io.debezium.relational.Column;
import io.debezium.relational.Table;
import io.debezium.relational.TableEditor;
import io.debezium.relational.TableId;
import io.debezium.relational.Tables;
import io.debezium.relational.history.TableChanges;
import io.sluice.functions.source.ChangeEventConversionException;
import io.sluice.functions.source.SourceSetupException;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.functions.source.internal.DdlClassifier;
import io.sluice.functions.source.internal.DeclaredType;
import io.sluice.functions.source.internal.MariaDbBinaryTypes;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.functions.source.internal.UnsupportedColumns;
import io.sluice.serializers.event.ChangeType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.annotation.Nullable;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Each table's schema at the current point of the binlog, and the rows-event decoder of that
 * version: the schemas start from {@code information_schema} at the reader's start position (or
 * from a checkpointed {@link State}) and follow every DDL statement the binlog carries, applied
 * with Debezium's MySQL DDL parser (once per statement, not per row). Each table map's own column
 * metadata (signedness and charsets; names and key with {@code binlog_row_metadata=FULL}) is
 * checked against the schema ({@link TableMapCheck}) before a row is decoded.
 *
 * <p>Every table created or renamed in the binlog is followed, captured or not, so that a table an
 * online schema change tool builds under another name is known when it is renamed into place. At
 * the start only the captured tables are read. A captured table the binlog names but the schemas do
 * not hold (renamed into a captured name from a table never followed, or captured only since a
 * restore) is read from the server when the rename or its first row comes, if the schemas were
 * given one ({@link SplitSchemas}).
 *
 * <p>One instance per reading thread.
 */
public final class TableSchemas implements TableDecoders {

    private static final Logger LOG = LoggerFactory.getLogger(TableSchemas.class);

    private static final Pattern CONVERT =
            Pattern.compile(
                    "\\bCONVERT\\s+TO\\s+(?:CHARACTER\\s+SET|CHARSET)\\s*=?\\s*[`'\"]?(\\w+)",
                    Pattern.CASE_INSENSITIVE);

    /**
     * MySQL 8.0.23's {@code ALTER [COLUMN] c SET VISIBLE|INVISIBLE} clause, which Debezium 1.9's
     * grammar does not know.
     */
    private static final Pattern VISIBILITY =
            Pattern.compile(
                    "\\bALTER\\s+(?:COLUMN\\s+)?(?:`[^`]+`|\\w+)\\s+SET\\s+(?:IN)?VISIBLE\\b",
                    Pattern.CASE_INSENSITIVE);

    /**
     * A spatial column's SRID attribute, MySQL 8.0's {@code SRID 4326} and MariaDB's {@code
     * REF_SYSTEM_ID=4326}, which Debezium 1.9's grammar does not know and which changes nothing of
     * the column's rows but which values it accepts.
     */
    private static final Pattern SRID =
            Pattern.compile(
                    "\\s(?:SRID\\s+|REF_SYSTEM_ID\\s*=\\s*)\\d+\\b", Pattern.CASE_INSENSITIVE);

    private static final String NAME = "(?:`[^`]+`|\\w+)(?:\\.(?:`[^`]+`|\\w+))?";

    /** An ALTER TABLE with nothing left to do. */
    private static final Pattern BARE_ALTER =
            Pattern.compile("\\s*ALTER\\s+TABLE\\s+" + NAME + "\\s*", Pattern.CASE_INSENSITIVE);

    /**
     * The tables whose rows the binlog holds: MariaDB's WITH SYSTEM VERSIONING tables are no BASE
     * TABLE (the source check refuses those it cannot read).
     */
    private static final String TABLES = "TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED')";

    private final MySqlAntlrDdlParser parser = new MySqlAntlrDdlParser();
    private final Tables tables;

    /**
     * Whether the server compares table and database names without case ({@code
     * lower_case_table_names} 1 or 2): a statement may then name a table in another case than the
     * table maps and {@code information_schema} give it.
     */
    private final boolean namesIgnoreCase;

    private final BiPredicate<String, String> captured;
    private final ColumnTypeStyle style;
    private final ZoneId timestampZone;
    private final Map<TableId, Version> versions = new HashMap<>();

    /** Where a captured table the binlog names but this does not know is read; null: nowhere. */
    @Nullable private final SourceJdbc server;

    private String serverCharset;

    private TableSchemas(
            BiPredicate<String, String> captured,
            ColumnTypeStyle style,
            ZoneId timestampZone,
            @Nullable SourceJdbc server,
            boolean namesIgnoreCase) {
        this.tables = new Tables(namesIgnoreCase);
        this.namesIgnoreCase = namesIgnoreCase;
        this.captured = captured;
        this.style = style;
        this.timestampZone = timestampZone;
        this.server = server;
    }

    /**
     * The schemas of the captured tables as {@code information_schema} states them now, to be used
     * from the current binlog position. Started behind a DDL of a captured table, the rows before
     * it would be read with the newer schema: restore from a {@link State} instead.
     *
     * @param captured whether (database, table) is captured
     * @param style the server's form of COLUMN_TYPE, for types stated by a DDL
     * @param timestampZone the zone TIMESTAMP values are written in
     */
    public static TableSchemas read(
            Connection connection,
            BiPredicate<String, String> captured,
            ColumnTypeStyle style,
            ZoneId timestampZone)
            throws SQLException {
        return read(connection, null, captured, style, timestampZone);
    }

    /**
     * As {@link #read(Connection, BiPredicate, ColumnTypeStyle, ZoneId)}; a captured table the
     * binlog names later that this does not know is read from {@code server} then.
     */
    static TableSchemas read(
            Connection connection,
            @Nullable SourceJdbc server,
            BiPredicate<String, String> captured,
            ColumnTypeStyle style,
            ZoneId timestampZone)
            throws SQLException {
        TableSchemas schemas = charsets(connection, server, captured, style, timestampZone);
        Map<String, String> tableCharsets = new HashMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet found =
                        statement.executeQuery(
                                "SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_COLLATION"
                                        + " FROM information_schema.TABLES"
                                        + " WHERE "
                                        + TABLES
                                        + " AND TABLE_SCHEMA NOT IN"
                                        + " ('mysql', 'information_schema', 'performance_schema',"
                                        + " 'sys')")) {
            while (found.next()) {
                if (captured.test(found.getString(1), found.getString(2))) {
                    tableCharsets.put(
                            found.getString(1) + "\u0000" + found.getString(2),
                            charsetOfCollation(found.getString(3)));
                }
            }
        }
        for (Map.Entry<String, String> table : tableCharsets.entrySet()) {
            String[] name = table.getKey().split("\u0000", 2);
            schemas.define(
                    name[0],
                    name[1],
                    BinlogColumn.read(connection, name[0], name[1]),
                    table.getValue());
        }
        return schemas;
    }

    /**
     * The schemas of a checkpoint's position: its tables and no other (a table it does not hold did
     * not exist there or was not followed), with the server's and databases' default charsets from
     * the server now, which the checkpoint does not hold. A captured table the binlog names later
     * that this does not know is read from {@code server} then.
     */
    static TableSchemas checkpointed(
            Connection connection,
            SourceJdbc server,
            Collection<Table> tables,
            BiPredicate<String, String> captured,
            ColumnTypeStyle style,
            ZoneId timestampZone)
            throws SQLException {
        return charsets(connection, server, captured, style, timestampZone).overwrite(tables);
    }

    /** Knowing no table yet: the server's and each database's default charset as they are now. */
    private static TableSchemas charsets(
            Connection connection,
            @Nullable SourceJdbc server,
            BiPredicate<String, String> captured,
            ColumnTypeStyle style,
            ZoneId timestampZone)
            throws SQLException {
        TableSchemas schemas;
        try (Statement statement = connection.createStatement()) {
            try (ResultSet found = statement.executeQuery("SELECT @@lower_case_table_names")) {
                found.next();
                schemas =
                        new TableSchemas(
                                captured, style, timestampZone, server, found.getInt(1) != 0);
            }
            try (ResultSet found = statement.executeQuery("SELECT @@character_set_server")) {
                found.next();
                schemas.setServerCharset(found.getString(1));
            }
            try (ResultSet databases =
                    statement.executeQuery(
                            "SELECT SCHEMA_NAME, DEFAULT_CHARACTER_SET_NAME"
                                    + " FROM information_schema.SCHEMATA")) {
                while (databases.next()) {
                    schemas.parser
                            .charsetNameForDatabase()
                            .put(databases.getString(1), databases.getString(2));
                }
            }
        }
        return schemas;
    }

    /** The schemas a {@link #snapshot()} held, to go on from the position it was taken at. */
    public static TableSchemas restore(
            State state,
            BiPredicate<String, String> captured,
            ColumnTypeStyle style,
            ZoneId timestampZone) {
        TableSchemas schemas = new TableSchemas(captured, style, timestampZone, null, false);
        if (state.serverCharset != null) {
            schemas.setServerCharset(state.serverCharset);
        }
        schemas.parser.charsetNameForDatabase().putAll(state.databaseCharsets);
        state.tables.forEach(schemas.tables::overwriteTable);
        return schemas;
    }

    /**
     * Puts {@code known} (a checkpoint's tables, which name the schema at its position) in place of
     * what this holds for the same tables.
     */
    public TableSchemas overwrite(Collection<Table> known) {
        known.forEach(table -> tables.overwriteTable(withMariaDbTypes(table)));
        versions.clear();
        return this;
    }

    /**
     * {@code table} with the MariaDB UUID, INET4 and INET6 columns this holds given their type:
     * Flink CDC's split holds them as BINARY(n), as it read them from {@code SHOW CREATE TABLE}
     * ({@link io.sluice.functions.source.internal.SnapshotQueryDriver}).
     */
    private Table withMariaDbTypes(Table table) {
        Table held = tables.forTable(table.id());
        if (held == null) {
            return table;
        }
        TableEditor editor = null;
        for (Column column : table.columns()) {
            Column mine = held.columnWithName(column.name());
            if (mine == null
                    || !column.typeName().equalsIgnoreCase("BINARY")
                    || column.length()
                            != MariaDbBinaryTypes.length(
                                    mine.typeName().toLowerCase(Locale.ROOT))) {
                continue;
            }
            if (editor == null) {
                editor = table.edit();
            }
            editor.updateColumn(
                    column.edit()
                            .type(mine.typeName(), mine.typeName())
                            .charsetName(null)
                            .create());
        }
        return editor == null ? table : editor.create();
    }

    /** What this holds now, for a checkpoint. */
    public State snapshot() {
        List<Table> all = new ArrayList<>();
        for (TableId id : tables.tableIds()) {
            all.add(tables.forTable(id));
        }
        return new State(serverCharset, new HashMap<>(parser.charsetNameForDatabase()), all);
    }

    /**
     * Applies one statement of a binlog QUERY event. Transaction control and other statements that
     * change no table are passed over without parsing.
     *
     * @param database the event's current database; may be empty
     * @param position where the statement is, for messages, e.g. {@code mysql-bin.000003:1234}
     * @throws IllegalStateException if a statement on a captured table cannot be parsed (the
     *     message names the statement and its position)
     */
    @Override
    public void applyDdl(String sql, String database, String position) {
        String current = database == null ? "" : database;
        DdlClassifier.Statement statement = DdlClassifier.classify(sql, current);
        ChangeType type = statement.type();
        if (type == ChangeType.TRUNCATE
                || (type == ChangeType.QUERY && !statement.isDatabaseStatement())) {
            return;
        }
        if (type == ChangeType.CREATE && DdlClassifier.createsNewTable(sql)) {
            // Debezium's parser ignores a CREATE TABLE of a table it knows.
            TableId created = id(statement.database(), statement.table());
            if (tables.removeTable(created) != null) {
                versions.remove(created);
                LOG.info(
                        "The binlog creates {} at {}, which the reader knew from the database: the"
                                + " statement's definition replaces the known one",
                        created,
                        position);
            }
        }
        List<TableId> moved = type == ChangeType.RENAME ? unknownRenamed(sql, current) : List.of();
        parser.setCurrentDatabase(current);
        try {
            parse(sql, statement, type);
        } catch (RuntimeException e) {
            if (appliedWithMariaDbTypes(sql, statement, type)) {
                LOG.info(
                        "Applied the DDL statement at {} with its MariaDB UUID, INET4 or INET6"
                                + " columns read as BINARY(n), then given their type: {}",
                        position,
                        sql);
                return;
            }
            if (appliedWithoutSrid(sql, statement, type)) {
                LOG.info(
                        "Applied the DDL statement at {} without its SRID attributes, which change"
                                + " no column's type: {}",
                        position,
                        sql);
                return;
            }
            if (type == ChangeType.ALTER && appliedWithoutVisibility(sql, statement, type)) {
                LOG.info(
                        "Applied the DDL statement at {} without its column visibility changes,"
                                + " which change no column of the rows: {}",
                        position,
                        sql);
                return;
            }
            if (!statement.table().isEmpty()
                    && captured.test(statement.database(), statement.table())) {
                String[] unsupported = UnsupportedColumns.declaredIn(sql);
                if (unsupported != null) {
                    // A restart would meet the same statement: fail once.
                    throw new SourceSetupException(
                            String.format(
                                    "%s; it is declared at %s by: %s. Leave the table out of the"
                                            + " captured tables.",
                                    UnsupportedColumns.message(
                                            statement.database() + "." + statement.table(),
                                            unsupported[0],
                                            unsupported[1]),
                                    position,
                                    sql));
                }
                throw new IllegalStateException(
                        String.format(
                                "Cannot apply the DDL statement at %s to the schema of %s.%s,"
                                        + " whose rows after it could not be read: %s (statement:"
                                        + " %s)",
                                position,
                                statement.database(),
                                statement.table(),
                                e.getMessage(),
                                sql),
                        e);
            }
            LOG.warn(
                    "Skipped the DDL statement at {}, which the DDL parser cannot read and which"
                            + " names no captured table: {} ({})",
                    position,
                    sql,
                    e.toString());
        }
        for (TableId id : moved) {
            if (tables.forTable(id) == null) {
                readFromServer(
                        id, "renamed at " + position + " from a table Sluice did not follow");
            }
        }
    }

    private void parse(String sql, DdlClassifier.Statement statement, ChangeType type) {
        parser.getDdlChanges().reset();
        parser.parse(sql, tables);
        Matcher convert = CONVERT.matcher(sql);
        if (type == ChangeType.ALTER && convert.find()) {
            convertColumns(id(statement.database(), statement.table()), convert.group(1));
        }
        versions.keySet().removeIf(id -> tables.forTable(id) == null); // dropped, renamed
    }

    /**
     * A statement that MariaDB's UUID, INET4 or INET6 columns made unreadable (Debezium 1.9's
     * grammar does not know them), applied with them declared BINARY(n), which has their binlog
     * form, and then given their own type again. False if it declares none or is unreadable so.
     */
    private boolean appliedWithMariaDbTypes(
            String sql, DdlClassifier.Statement statement, ChangeType type) {
        List<String[]> declared = new ArrayList<>();
        String rest = MariaDbBinaryTypes.rewrite(sql, declared);
        if (declared.isEmpty()) {
            return false;
        }
        try {
            parse(rest, statement, type);
        } catch (RuntimeException e) {
            String withoutSrid = SRID.matcher(rest).replaceAll("");
            if (withoutSrid.equals(rest)) {
                return false;
            }
            try {
                parse(withoutSrid, statement, type);
            } catch (RuntimeException again) {
                return false;
            }
        }
        retype(id(statement.database(), statement.table()), declared);
        return true;
    }

    /**
     * Gives the columns {@link MariaDbBinaryTypes#rewrite} declared BINARY(n) their own type again:
     * the type name ({@code UUID}), no charset.
     */
    private void retype(TableId id, List<String[]> declared) {
        Table table = tables.forTable(id);
        if (table == null) {
            return;
        }
        TableEditor editor = table.edit();
        boolean changed = false;
        for (String[] column : declared) {
            Column current = table.columnWithName(column[0]);
            if (current == null || !current.typeName().equalsIgnoreCase("BINARY")) {
                continue;
            }
            String name = column[1].toUpperCase(Locale.ROOT);
            editor.updateColumn(current.edit().type(name, name).charsetName(null).create());
            changed = true;
        }
        if (changed) {
            tables.overwriteTable(editor.create());
        }
    }

    /**
     * A statement that spatial columns' SRID attributes made unreadable, applied without them.
     * False if it has none or is unreadable without.
     */
    private boolean appliedWithoutSrid(
            String sql, DdlClassifier.Statement statement, ChangeType type) {
        String rest = SRID.matcher(sql).replaceAll("");
        if (rest.equals(sql)) {
            return false;
        }
        try {
            parse(rest, statement, type);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * An ALTER TABLE that MySQL 8.0's column visibility clauses made unreadable, applied without
     * them: invisible columns stay in the row image, in their place, so visibility changes no
     * column Sluice holds. False if the statement has no such clause or is unreadable without.
     */
    private boolean appliedWithoutVisibility(
            String sql, DdlClassifier.Statement statement, ChangeType type) {
        String rest = VISIBILITY.matcher(sql).replaceAll("");
        if (rest.equals(sql)) {
            return false;
        }
        // The commas the clauses were between: doubled, after the table name, at the end.
        rest =
                rest.replaceAll(",(\\s*,)+", ",")
                        .replaceAll("(?i)^(\\s*ALTER\\s+TABLE\\s+" + NAME + ")\\s*,", "$1")
                        .replaceAll(",\\s*;?\\s*$", "");
        if (BARE_ALTER.matcher(rest).matches()) {
            return true;
        }
        try {
            parse(rest, statement, type);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * {@code CONVERT TO CHARACTER SET} changes every character column, but Debezium 1.9's parser
     * changes neither the columns nor the table's default: do both.
     */
    private void convertColumns(TableId id, String charset) {
        Table table = tables.forTable(id);
        if (table == null || charset.equalsIgnoreCase("DEFAULT")) {
            return; // DEFAULT: the database's charset, which a binlog reader rarely meets
        }
        TableEditor editor = table.edit().setDefaultCharsetName(charset);
        for (Column column : table.columns()) {
            if (column.charsetName() != null) {
                editor.updateColumn(column.edit().charsetName(charset).create());
            }
        }
        tables.overwriteTable(editor.create());
    }

    @Override
    public boolean captures(String database, String table) {
        return captured.test(database, table);
    }

    @Override
    public RowsEventDecoder decoder(String database, String table, TableMapEventData tableMap) {
        if (!captured.test(database, table)) {
            return null;
        }
        TableId id = id(database, table);
        Table current = tables.forTable(id);
        if (current == null
                && readFromServer(id, "a table Sluice did not follow, at its first row")) {
            current = tables.forTable(id);
        }
        if (current == null) {
            throw new ChangeEventConversionException(
                    String.format(
                            "The binlog has rows of %s.%s, a table whose schema Sluice does not"
                                    + " know at this point (neither at the reader's start or"
                                    + " restore nor created or renamed by a DDL statement since)"
                                    + " and that the server does not have now",
                            database, table));
        }
        Version version = versions.get(id);
        if (version == null || version.table != current) {
            version = new Version(current, columns(current));
            versions.put(id, version);
        }
        if (tableMap != version.checkedMap) {
            TableMapCheck.check(tableMap, version.columns, style);
            version.checkedMap = tableMap;
        }
        return version.decoder(database, table, timestampZone);
    }

    /**
     * The captured tables a rename moves a table this does not know into, as the rename leaves them
     * (a name renamed on within the statement is left out).
     */
    private List<TableId> unknownRenamed(String sql, String current) {
        Set<TableId> known = new HashSet<>(tables.tableIds());
        Set<TableId> unknown = new LinkedHashSet<>();
        for (DdlClassifier.Rename rename : DdlClassifier.renames(sql, current)) {
            TableId from = id(rename.from().database(), rename.from().table());
            TableId to = id(rename.to().database(), rename.to().table());
            boolean followed = known.remove(from);
            unknown.remove(from);
            (followed ? known : unknown).add(to);
        }
        unknown.removeIf(id -> !captured.test(id.catalog(), id.table()));
        return new ArrayList<>(unknown);
    }

    /**
     * Defines a captured table this does not know as the server has it now, which is the table's
     * definition at this point of the binlog only if it did not change since; the table-map checks
     * ({@link TableMapCheck}) refuse rows that show otherwise. False if there is no server to ask
     * or it does not have the table.
     */
    private boolean readFromServer(TableId id, String why) {
        if (server == null || !captured.test(id.catalog(), id.table())) {
            return false;
        }
        try (Connection connection = server.connect();
                PreparedStatement query =
                        connection.prepareStatement(
                                "SELECT TABLE_COLLATION FROM information_schema.TABLES"
                                        + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                                        + " AND "
                                        + TABLES)) {
            query.setString(1, id.catalog());
            query.setString(2, id.table());
            String charset;
            try (ResultSet found = query.executeQuery()) {
                if (!found.next()) {
                    LOG.warn("{}, {}, is not on the server now: it stays unknown", id, why);
                    return false;
                }
                charset = charsetOfCollation(found.getString(1));
            }
            define(
                    id.catalog(),
                    id.table(),
                    BinlogColumn.read(connection, id.catalog(), id.table()),
                    charset);
        } catch (SQLException e) {
            throw new IllegalStateException(
                    String.format(
                            "Cannot read the definition of %s, %s, from information_schema at"
                                    + " %s: %s",
                            id, why, server.address(), e.getMessage()),
                    e);
        }
        versions.remove(id);
        LOG.warn(
                "Read the definition of {}, {}, from the server as it is now: rows written before a"
                        + " later change of the table fail the reader",
                id,
                why);
        return true;
    }

    /** The columns {@code database.table} has now; null if it is not known. */
    List<BinlogColumn> columns(String database, String table) {
        Table current = tables.forTable(id(database, table));
        return current == null ? null : columns(current);
    }

    /** The key of {@code database.table}: in lower case where the server ignores case. */
    private TableId id(String database, String table) {
        return namesIgnoreCase
                ? new TableId(
                        database.toLowerCase(Locale.ROOT), null, table.toLowerCase(Locale.ROOT))
                : new TableId(database, null, table);
    }

    /** The columns of a table version as the decoder takes them. */
    List<BinlogColumn> columns(Table table) {
        List<BinlogColumn> columns = new ArrayList<>(table.columns().size());
        for (Column column : table.columns()) {
            DeclaredType type = declaredType(column);
            String charset = column.charsetName();
            if (charset == null && column.typeName().equalsIgnoreCase("JSON")) {
                charset = "utf8mb4"; // MariaDB's JSON is LONGTEXT in utf8mb4
            }
            columns.add(
                    BinlogColumn.of(
                            column.name(),
                            type,
                            usesCharset(type) ? charset : null,
                            table.isPrimaryKeyColumn(column.name())));
        }
        return columns;
    }

    private DeclaredType declaredType(Column column) {
        String typeName = column.typeName();
        String base = typeName.trim().toLowerCase(Locale.ROOT);
        if (base.equals("enum") || base.equals("set")) {
            String labels =
                    column.enumValues().stream()
                            .map(label -> "'" + unquote(label).replace("'", "''") + "'")
                            .collect(Collectors.joining(","));
            return DeclaredType.ofColumnType(base + "(" + labels + ")");
        }
        return DeclaredType.of(
                typeName,
                column.length() >= 0 ? String.valueOf(column.length()) : null,
                column.scale().map(String::valueOf).orElse(null),
                null,
                style);
    }

    /** A label as the DDL's string literal states it ({@code 'it''s'}), without its quotes. */
    private static String unquote(String literal) {
        if (literal.length() < 2) {
            return literal;
        }
        char quote = literal.charAt(0);
        if ((quote != '\'' && quote != '"') || literal.charAt(literal.length() - 1) != quote) {
            return literal;
        }
        String q = String.valueOf(quote);
        return literal.substring(1, literal.length() - 1).replace(q + q, q).replace("\\" + q, q);
    }

    private static boolean usesCharset(DeclaredType type) {
        switch (type.base()) {
            case "char":
            case "varchar":
            case "tinytext":
            case "text":
            case "mediumtext":
            case "longtext":
            case "enum":
            case "set":
                return true;
            default:
                return false;
        }
    }

    /** Defines a table as information_schema states it, through the parser Debezium reads with. */
    private void define(
            String database, String table, List<BinlogColumn> columns, String tableCharset) {
        for (BinlogColumn column : columns) {
            if (UnsupportedColumns.TYPES.contains(column.type().base())) {
                // A restart would read the same definition: fail once.
                throw new SourceSetupException(
                        UnsupportedColumns.message(
                                        database + "." + table,
                                        column.name(),
                                        column.type().mysqlType())
                                + ". Leave the table out of the captured tables.");
            }
        }
        StringBuilder ddl = new StringBuilder("CREATE TABLE ");
        ddl.append(quote(database)).append('.').append(quote(table)).append(" (");
        List<String> keys = new ArrayList<>();
        for (BinlogColumn column : columns) {
            ddl.append(quote(column.name())).append(' ').append(column.type().ddlType());
            if (column.mysqlCharset() != null && !MariaDbBinaryTypes.is(column.type().base())) {
                ddl.append(" CHARACTER SET ").append(column.mysqlCharset());
            }
            ddl.append(", ");
            if (column.isKey()) {
                keys.add(quote(column.name()));
            }
        }
        if (keys.isEmpty()) {
            ddl.setLength(ddl.length() - 2);
        } else {
            ddl.append("PRIMARY KEY (").append(String.join(", ", keys)).append(')');
        }
        ddl.append(')');
        if (tableCharset != null) {
            ddl.append(" DEFAULT CHARSET=").append(tableCharset);
        }
        parser.setCurrentDatabase(database);
        parser.getDdlChanges().reset();
        List<String[]> declared = new ArrayList<>();
        String sql = MariaDbBinaryTypes.rewrite(ddl.toString(), declared);
        parser.parse(sql, tables);
        retype(id(database, table), declared);
    }

    private void setServerCharset(String charset) {
        serverCharset = charset;
        parser.parse("SET character_set_server = " + charset, tables);
    }

    /** A collation's charset: the name before its first '_' ({@code binary} has none). */
    private static String charsetOfCollation(String collation) {
        if (collation == null) {
            return null;
        }
        int underscore = collation.indexOf('_');
        return underscore < 0 ? collation : collation.substring(0, underscore);
    }

    private static String quote(String identifier) {
        return '`' + identifier.replace("`", "``") + '`';
    }

    /** One table version: its columns and, once asked for, its decoder. */
    private static final class Version {
        final Table table;
        final List<BinlogColumn> columns;
        TableMapEventData checkedMap;
        private RowsEventDecoder decoder;

        Version(Table table, List<BinlogColumn> columns) {
            this.table = table;
            this.columns = columns;
        }

        /** The decoder, whose events name the table as the binlog's table map does. */
        RowsEventDecoder decoder(String database, String name, ZoneId zone) {
            if (decoder == null) {
                decoder = RowsEventDecoder.of(database, name, columns, zone);
            }
            return decoder;
        }
    }

    /**
     * What {@link TableSchemas} holds at one binlog position: the server's and each database's
     * default charset (for tables created later) and every table it follows. Immutable.
     */
    public static final class State {
        final String serverCharset;
        final Map<String, String> databaseCharsets;
        final List<Table> tables;

        State(String serverCharset, Map<String, String> databaseCharsets, List<Table> tables) {
            this.serverCharset = serverCharset;
            this.databaseCharsets = Map.copyOf(databaseCharsets);
            this.tables = List.copyOf(tables);
        }

        /** The tables, as Debezium's model holds them. */
        public List<Table> tables() {
            return tables;
        }

        /**
         * The tables as Flink CDC's binlog split carries its reader's schemas ({@code
         * MySqlBinlogSplit.getTableSchemas()}); the charsets are not in it.
         */
        public Map<TableId, TableChanges.TableChange> asTableChanges() {
            Map<TableId, TableChanges.TableChange> changes = new HashMap<>();
            for (Table table : tables) {
                changes.put(
                        table.id(),
                        new TableChanges.TableChange(TableChanges.TableChangeType.CREATE, table));
            }
            return changes;
        }

        @Override
        public boolean equals(Object other) {
            if (!(other instanceof State)) {
                return false;
            }
            State that = (State) other;
            return java.util.Objects.equals(serverCharset, that.serverCharset)
                    && databaseCharsets.equals(that.databaseCharsets)
                    && byId(tables).equals(byId(that.tables));
        }

        @Override
        public int hashCode() {
            return databaseCharsets.hashCode() * 31 + byId(tables).hashCode();
        }

        private static Map<TableId, Table> byId(List<Table> tables) {
            Map<TableId, Table> map = new HashMap<>();
            tables.forEach(t -> map.put(t.id(), t));
            return map;
        }

        @Override
        public String toString() {
            return "server charset "
                    + serverCharset
                    + ", database charsets "
                    + databaseCharsets
                    + ", tables "
                    + tables;
        }
    }
}
