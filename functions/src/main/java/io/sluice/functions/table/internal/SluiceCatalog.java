package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;

import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.functions.table.ChangeColumn;
import io.sluice.functions.table.SluiceCatalogOptions;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The Sluice catalog: each database of the server, as the server lists it when asked (nothing is
 * cached), holds change tables of the {@code sluice-mysql} connector with the catalog's source
 * options: {@code changes}, every change of the tables {@code table-pattern} matches, and one table
 * per matched table, its changes only. Their schema is the change column and every metadata column
 * ({@link SourceMetadata}), so statements declare nothing; a query computes only the metadata it
 * uses.
 *
 * <p>Tables and views created in the catalog (sink tables, say) are kept in memory, as in Flink's
 * default catalog; a server database or table cannot be created, altered or dropped through it.
 */
@Internal
public final class SluiceCatalog extends GenericInMemoryCatalog {

    /** Databases of the server itself, never captured. */
    private static final Set<String> SYSTEM_DATABASES =
            Set.of("information_schema", "mysql", "performance_schema", "sys");

    private final SourceJdbc jdbc;
    private final String tablePattern;
    private final Pattern tableRegex;
    private final Map<String, String> tableOptions;

    public SluiceCatalog(
            String name,
            String defaultDatabase,
            SourceJdbc jdbc,
            String tablePattern,
            Map<String, String> tableOptions) {
        super(name, defaultDatabase);
        this.jdbc = jdbc;
        this.tablePattern = tablePattern;
        this.tableRegex = Pattern.compile(tablePattern);
        this.tableOptions = Map.copyOf(tableOptions);
    }

    /** Fails {@code CREATE CATALOG} when the server is out of reach or no table matches. */
    @Override
    public void open() {
        super.open();
        for (String database : serverDatabases()) {
            if (!serverTables(database).isEmpty()) {
                return;
            }
        }
        throw new ValidationException(
                String.format(
                        "Catalog '%s' ('type' = '%s'): option '%s' = '%s' matches no table of any"
                                + " database on %s (as user '%s')",
                        getName(),
                        SluiceCatalogOptions.IDENTIFIER,
                        SluiceCatalogOptions.TABLE_PATTERN.key(),
                        tablePattern,
                        jdbc.address(),
                        jdbc.user()));
    }

    @Override
    public List<String> listDatabases() {
        Set<String> all = new LinkedHashSet<>(super.listDatabases());
        all.addAll(serverDatabases());
        return new ArrayList<>(all);
    }

    @Override
    public boolean databaseExists(String database) {
        return super.databaseExists(database) || isServerDatabase(database);
    }

    @Override
    public CatalogDatabase getDatabase(String database) throws DatabaseNotExistException {
        if (super.databaseExists(database) || !isServerDatabase(database)) {
            return super.getDatabase(database);
        }
        return new CatalogDatabaseImpl(
                Map.of(), "Database '" + database + "' of the server " + jdbc.address());
    }

    @Override
    public List<String> listTables(String database) throws DatabaseNotExistException {
        Set<String> all = new LinkedHashSet<>(super.listTables(database));
        if (isServerDatabase(database)) {
            all.add(SluiceCatalogOptions.CHANGES_TABLE);
            all.addAll(serverTables(database));
        }
        return new ArrayList<>(all);
    }

    @Override
    public boolean tableExists(ObjectPath path) {
        return super.tableExists(path) || isChangeTable(path);
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath path) throws TableNotExistException {
        if (super.tableExists(path)) {
            return super.getTable(path);
        }
        String database = path.getDatabaseName();
        if (!isServerDatabase(database)) {
            throw new TableNotExistException(getName(), path);
        }
        List<String> tables = serverTables(database);
        if (SluiceCatalogOptions.CHANGES_TABLE.equals(path.getObjectName())) {
            if (tables.isEmpty()) {
                throw new ValidationException(
                        String.format(
                                "Table '%s.%s' ('type' = '%s'): option '%s' = '%s' matches no"
                                        + " table of database '%s'",
                                getName(),
                                path.getFullName(),
                                SluiceCatalogOptions.IDENTIFIER,
                                SluiceCatalogOptions.TABLE_PATTERN.key(),
                                tablePattern,
                                database));
            }
            return changeTable(
                    quote(database) + "\\.(?:" + tablePattern + ")",
                    "Every change of the tables of '"
                            + database
                            + "' that '"
                            + tablePattern
                            + "' matches");
        }
        if (!tables.contains(path.getObjectName())) {
            throw new TableNotExistException(getName(), path);
        }
        return changeTable(
                quote(database) + "\\." + quote(path.getObjectName()),
                "Every change of '" + path.getFullName() + "'");
    }

    @Override
    public CatalogTableStatistics getTableStatistics(ObjectPath path)
            throws TableNotExistException {
        return super.tableExists(path)
                ? super.getTableStatistics(path)
                : CatalogTableStatistics.UNKNOWN;
    }

    @Override
    public CatalogColumnStatistics getTableColumnStatistics(ObjectPath path)
            throws TableNotExistException {
        return super.tableExists(path)
                ? super.getTableColumnStatistics(path)
                : CatalogColumnStatistics.UNKNOWN;
    }

    /** The schema every change table has: the change and all metadata, virtual. */
    public static Schema changeSchema() {
        Schema.Builder schema =
                Schema.newBuilder().column(ChangeColumn.NAME, ChangeColumn.DATA_TYPE);
        for (SourceMetadata metadata : SourceMetadata.values()) {
            schema.columnByMetadata(metadata.key(), metadata.type(), null, true);
        }
        return schema.build();
    }

    private CatalogTable changeTable(String tablesRegex, String comment) {
        Map<String, String> options = new HashMap<>(tableOptions);
        options.put(MySqlSourceOptions.TABLES.key(), tablesRegex);
        return CatalogTable.newBuilder()
                .schema(changeSchema())
                .comment(comment)
                .options(options)
                .build();
    }

    private boolean isChangeTable(ObjectPath path) {
        String database = path.getDatabaseName();
        return isServerDatabase(database)
                && (SluiceCatalogOptions.CHANGES_TABLE.equals(path.getObjectName())
                        || serverTables(database).contains(path.getObjectName()));
    }

    private boolean isServerDatabase(String database) {
        return !SYSTEM_DATABASES.contains(database) && serverDatabases().contains(database);
    }

    private List<String> serverDatabases() {
        List<String> databases = new ArrayList<>();
        for (String database :
                query("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA ORDER BY 1", null)) {
            if (!SYSTEM_DATABASES.contains(database)) {
                databases.add(database);
            }
        }
        return databases;
    }

    /** The database's base tables that {@code table-pattern} matches. */
    private List<String> serverTables(String database) {
        List<String> tables = new ArrayList<>();
        for (String table :
                query(
                        "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                                + " AND TABLE_TYPE = 'BASE TABLE' ORDER BY 1",
                        database)) {
            if (tableRegex.matcher(table).matches()) {
                tables.add(table);
            }
        }
        return tables;
    }

    private List<String> query(String sql, String parameter) {
        try (Connection connection = jdbc.connect();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            if (parameter != null) {
                statement.setString(1, parameter);
            }
            List<String> values = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
            return values;
        } catch (SQLException e) {
            throw new CatalogException(
                    String.format(
                            "Catalog '%s' ('type' = '%s') cannot list the server's tables: %s as"
                                    + " user '%s' answered: %s",
                            getName(),
                            SluiceCatalogOptions.IDENTIFIER,
                            jdbc.address(),
                            jdbc.user(),
                            e.getMessage()),
                    e);
        }
    }

    /** {@code name} as a regular expression that matches exactly it. */
    private static String quote(String name) {
        StringBuilder quoted = new StringBuilder(name.length() + 8);
        for (char c : name.toCharArray()) {
            if (!Character.isLetterOrDigit(c) && c != '_') {
                quoted.append('\\');
            }
            quoted.append(c);
        }
        return quoted.toString();
    }
}
