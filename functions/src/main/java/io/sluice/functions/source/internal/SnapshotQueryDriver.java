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
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
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
            "SELECT COLUMN_NAME, EXTRA FROM information_schema.COLUMNS"
                    + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";

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

    /** {@code connection}, whose {@code prepareStatement} names the columns of a chunk query. */
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
                    return invoke(method, connection, actual);
                };
        return (Connection)
                Proxy.newProxyInstance(
                        SnapshotQueryDriver.class.getClassLoader(),
                        new Class<?>[] {Connection.class},
                        handler);
    }

    private static Object invoke(Method method, Connection connection, Object[] args)
            throws Throwable {
        try {
            return method.invoke(connection, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
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
        boolean invisible = false;
        try (PreparedStatement statement = connection.prepareStatement(COLUMNS)) {
            statement.setString(1, database);
            statement.setString(2, table);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    columns.add(rows.getString(1));
                    String extra = rows.getString(2);
                    invisible |= extra != null && extra.toUpperCase().contains("INVISIBLE");
                }
            }
        }
        return invisible ? named(columns, sql) : sql;
    }

    /** {@code sql}, a {@code SELECT *}, selecting {@code columns} instead. */
    static String named(List<String> columns, String sql) {
        StringBuilder named = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            named.append(i == 0 ? "`" : ", `")
                    .append(columns.get(i).replace("`", "``"))
                    .append('`');
        }
        return named.append(sql, STAR.length(), sql.length()).toString();
    }
}
