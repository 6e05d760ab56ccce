package io.sluice.functions.source.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverPropertyInfo;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JDBC driver of Debezium's connections in Flink CDC (the snapshot's among them):
 * Connector/J's, except that a chunk query of a table with INVISIBLE columns (MySQL 8.0.23+,
 * MariaDB 10.3+) names every column. Flink CDC reads a chunk with {@code SELECT *}, which leaves
 * invisible columns out, and then reads the result's columns with the types of the table's first
 * columns: the invisible columns' values were lost, and a column after one was read as another type
 * (a TIME beyond 24 hours failed the snapshot). Debezium instantiates the class named by {@code
 * database.jdbc.driver}, so this needs a public no-argument constructor.
 */
public final class SnapshotQueryDriver implements Driver {

    /** Flink CDC's chunk query: {@code SELECT * FROM `db`.`table` …}. */
    private static final Pattern CHUNK_QUERY =
            Pattern.compile("^SELECT \\* FROM `((?:[^`]|``)+)`\\.`((?:[^`]|``)+)`", Pattern.DOTALL);

    private static final String STAR = "SELECT *";

    private static final String COLUMNS =
            "SELECT COLUMN_NAME, EXTRA, DATA_TYPE FROM information_schema.COLUMNS"
                    + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";

    /** The statement Flink CDC learns a table's definition from. */
    private static final Pattern SHOW_CREATE_TABLE =
            Pattern.compile("^\\s*SHOW\\s+CREATE\\s+TABLE\\b", Pattern.CASE_INSENSITIVE);

    private final Driver driver = MySqlDrivers.driver();

    public SnapshotQueryDriver() throws SQLException {}

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        Connection connection = driver.connect(url, info);
        return connection == null ? null : naming(connection);
    }

    @Override
    public boolean acceptsURL(String url) throws SQLException {
        return driver.acceptsURL(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        return driver.getPropertyInfo(url, info);
    }

    @Override
    public int getMajorVersion() {
        return driver.getMajorVersion();
    }

    @Override
    public int getMinorVersion() {
        return driver.getMinorVersion();
    }

    @Override
    public boolean jdbcCompliant() {
        return driver.jdbcCompliant();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return driver.getParentLogger();
    }

    /**
     * {@code connection}, whose {@code prepareStatement} names the columns of a chunk query, and
     * whose statements' {@code SHOW CREATE TABLE} results declare MariaDB's UUID, INET4 and INET6
     * columns BINARY(n), which Debezium's DDL parser reads ({@link MariaDbBinaryTypes}).
     */
    static Connection naming(Connection connection) {
        InvocationHandler handler =
                (proxy, method, args) -> {
                    Object[] actual = args;
                    if (method.getName().equals("prepareStatement")
                            && args != null
                            && args[0] instanceof String) {
                        actual = args.clone();
                        actual[0] = withColumns(connection, (String) args[0]);
                    }
                    Object result = invoke(method, connection, actual);
                    if (method.getName().equals("createStatement")) {
                        return definitionsRewriting((Statement) result);
                    }
                    return result;
                };
        return (Connection)
                Proxy.newProxyInstance(
                        SnapshotQueryDriver.class.getClassLoader(),
                        new Class<?>[] {Connection.class},
                        handler);
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** {@code statement}, whose {@code SHOW CREATE TABLE} results are {@link #readable}. */
    private static Statement definitionsRewriting(Statement statement) {
        InvocationHandler handler =
                (proxy, method, args) -> {
                    Object result = invoke(method, statement, args);
                    if (method.getName().equals("executeQuery")
                            && args != null
                            && args.length == 1
                            && args[0] instanceof String
                            && SHOW_CREATE_TABLE.matcher((String) args[0]).lookingAt()) {
                        return definitionRewriting((ResultSet) result);
                    }
                    return result;
                };
        return (Statement)
                Proxy.newProxyInstance(
                        SnapshotQueryDriver.class.getClassLoader(),
                        new Class<?>[] {Statement.class},
                        handler);
    }

    /** A {@code SHOW CREATE TABLE} result whose definition (column 2) is {@link #readable}. */
    private static ResultSet definitionRewriting(ResultSet result) {
        InvocationHandler handler =
                (proxy, method, args) -> {
                    Object value = invoke(method, result, args);
                    if (method.getName().equals("getString")
                            && value != null
                            && args != null
                            && (Integer.valueOf(2).equals(args[0])
                                    || "Create Table".equals(args[0]))) {
                        return readable((String) value);
                    }
                    return value;
                };
        return (ResultSet)
                Proxy.newProxyInstance(
                        SnapshotQueryDriver.class.getClassLoader(),
                        new Class<?>[] {ResultSet.class},
                        handler);
    }

    /**
     * A table definition with MariaDB's UUID, INET4 and INET6 columns declared BINARY(16) and
     * BINARY(4), which have their binlog form; Sluice gives them their type again ({@link
     * TablePlan}).
     */
    static String readable(String definition) {
        return MariaDbBinaryTypes.rewrite(definition, new ArrayList<>());
    }

    /**
     * {@code sql} with {@code *} replaced by the table's columns in their order when it is a chunk
     * query of a table with invisible columns; otherwise {@code sql}.
     */
    static String withColumns(Connection connection, String sql) throws SQLException {
        Matcher chunk = CHUNK_QUERY.matcher(sql);
        if (!chunk.lookingAt()) {
            return sql;
        }
        String database = chunk.group(1).replace("``", "`");
        String table = chunk.group(2).replace("``", "`");
        List<String> columns = new ArrayList<>();
        Set<String> inet6 = new HashSet<>();
        boolean invisible = false;
        try (PreparedStatement statement = connection.prepareStatement(COLUMNS)) {
            statement.setString(1, database);
            statement.setString(2, table);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    columns.add(rows.getString(1));
                    String extra = rows.getString(2);
                    invisible |= extra != null && extra.toUpperCase().contains("INVISIBLE");
                    if ("inet6".equalsIgnoreCase(rows.getString(3))) {
                        inet6.add(rows.getString(1));
                    }
                }
            }
        }
        return invisible || !inet6.isEmpty() ? named(columns, inet6, sql) : sql;
    }

    /** {@code sql}, a {@code SELECT *}, selecting {@code columns} instead. */
    static String named(List<String> columns, String sql) {
        return named(columns, Set.of(), sql);
    }

    /**
     * {@code sql}, a {@code SELECT *}, selecting {@code columns} instead; those of {@code inet6},
     * MariaDB INET6 columns, as their 16 bytes, the binlog's form (their text could be as short as
     * the bytes, which the renderer could not tell apart).
     */
    static String named(List<String> columns, Set<String> inet6, String sql) {
        StringBuilder named = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            String quoted = "`" + columns.get(i).replace("`", "``") + "`";
            named.append(i == 0 ? "" : ", ");
            if (inet6.contains(columns.get(i))) {
                named.append("CAST(").append(quoted).append(" AS BINARY(16)) AS ").append(quoted);
            } else {
                named.append(quoted);
            }
        }
        return named.append(sql, STAR.length(), sql.length()).toString();
    }
}
