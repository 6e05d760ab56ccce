package io.sluice.it.source;

import io.sluice.it.server.DatabaseServer;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The table {@code geo}: a column of every spatial type (with and without an SRID) and, on MariaDB,
 * UUID, INET4 and INET6; and what Canal writes for them. Canal writes a spatial value as the
 * column's bytes (MySQL's internal form: the SRID, 4 bytes little-endian, then WKB), one ISO-8859-1
 * char per byte, sqlType 2004; Sluice writes the same in snapshots too. MariaDB's UUID and INET
 * types are their text as the server shows it, sqlType 1 (Canal decodes their binlog bytes as UTF-8
 * text, docs/value-rendering.md).
 */
final class SpatialTypes {

    private SpatialTypes() {}

    static final String TABLE = "geo";

    private static final String[] SPATIAL = {
        "g", "p", "l", "po", "mp", "ml", "mpo", "gc", "g_srid", "p_srid"
    };

    /** The table and its rows 1 (values), 2 (NULLs), 3 and 4 (other values) on {@code kind}. */
    static List<String> statements(DatabaseServer.Kind kind) {
        List<String> statements = new ArrayList<>();
        statements.add(
                "CREATE TABLE geo (id INT NOT NULL, g GEOMETRY NULL, p POINT NULL,"
                        + " l LINESTRING NULL, po POLYGON NULL, mp MULTIPOINT NULL,"
                        + " ml MULTILINESTRING NULL, mpo MULTIPOLYGON NULL,"
                        + " gc GEOMETRYCOLLECTION NULL, g_srid GEOMETRY NULL, "
                        + sridColumn(kind, "p_srid")
                        + ", PRIMARY KEY (id))");
        statements.add(
                "INSERT INTO geo VALUES (1, ST_GeomFromText('POINT(1 2)'),"
                        + " ST_GeomFromText('POINT(-1.5 0)'),"
                        + " ST_GeomFromText('LINESTRING(0 0, 1 1, 2 0)'),"
                        + " ST_GeomFromText('POLYGON((0 0, 10 0, 10 10, 0 10, 0 0),"
                        + " (2 2, 4 2, 4 4, 2 2))'),"
                        + " ST_GeomFromText('MULTIPOINT(0 0, 1 1)'),"
                        + " ST_GeomFromText('MULTILINESTRING((0 0, 1 1), (2 2, 3 3))'),"
                        + " ST_GeomFromText('MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)),"
                        + " ((5 5, 6 5, 6 6, 5 5)))'),"
                        + " ST_GeomFromText('GEOMETRYCOLLECTION(POINT(1 1),"
                        + " LINESTRING(0 0, 1 1))'),"
                        + " ST_GeomFromText('POINT(1 2)', 3857),"
                        + " ST_GeomFromText('POINT(10 20)', 4326))");
        statements.add("INSERT INTO geo (id) VALUES (2)");
        statements.add(
                "INSERT INTO geo (id, g, gc, g_srid) VALUES (3,"
                        + " ST_GeomFromText('LINESTRING(0 0, 0 1)'),"
                        + " ST_GeomFromText('GEOMETRYCOLLECTION EMPTY'),"
                        + " ST_GeomFromText('POLYGON((0 0, 1 0, 1 1, 0 0))', 4326))");
        statements.add("INSERT INTO geo (id, p) VALUES (4, ST_GeomFromText('POINT(0 0)'))");
        return statements;
    }

    /** A POINT column {@code name} of SRID 4326, in the server's syntax. */
    static String sridColumn(DatabaseServer.Kind kind, String name) {
        return kind == DatabaseServer.Kind.MARIADB
                ? name + " POINT REF_SYSTEM_ID=4326 NULL"
                : name + " POINT NULL SRID 4326";
    }

    /** The columns in table order. */
    static List<String> names() {
        List<String> names = new ArrayList<>(List.of("id"));
        names.addAll(List.of(SPATIAL));
        return names;
    }

    /** Canal's sqlType of {@code column}. */
    static int sqlType(String column) {
        return column.equals("id") ? Types.INTEGER : Types.BLOB;
    }

    /** What Canal writes for {@code column} of row {@code id}. */
    static String canalText(DatabaseServer server, String database, String column, int id)
            throws Exception {
        try (Connection connection = server.connect(database);
                Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery(
                                "SELECT HEX(" + column + ") FROM geo WHERE id = " + id)) {
            result.next();
            String hex = result.getString(1);
            return hex == null
                    ? null
                    : new String(HexFormat.of().parseHex(hex), StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * What Canal writes for each column of row {@code id}, read from the server: a spatial value's
     * bytes, one ISO-8859-1 char each.
     */
    static List<String> canalRow(DatabaseServer server, String database, int id) throws Exception {
        List<String> names = names();
        List<String> select = new ArrayList<>();
        for (String name : names) {
            select.add(name.equals("id") ? "CAST(id AS CHAR)" : "HEX(" + name + ")");
        }
        List<String> row = new ArrayList<>();
        try (Connection connection = server.connect(database);
                Statement statement = connection.createStatement();
                ResultSet result =
                        statement.executeQuery(
                                "SELECT "
                                        + String.join(", ", select)
                                        + " FROM geo WHERE id = "
                                        + id)) {
            if (!result.next()) {
                throw new IllegalStateException("No row " + id + " in " + database + ".geo");
            }
            for (int c = 0; c < names.size(); c++) {
                String text = result.getString(c + 1);
                boolean hex = select.get(c).startsWith("HEX(");
                row.add(
                        text == null || !hex
                                ? text
                                : new String(
                                        HexFormat.of().parseHex(text),
                                        StandardCharsets.ISO_8859_1));
            }
        }
        return row;
    }
}
