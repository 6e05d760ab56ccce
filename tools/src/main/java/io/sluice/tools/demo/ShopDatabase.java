package io.sluice.tools.demo;

import io.sluice.it.server.DatabaseServer;

import java.util.ArrayList;
import java.util.List;

/**
 * The SQL examples' database ({@code ddl/shop.sql}: orders, order_items, users), as the SQL demo
 * and the SQL ITCases create and seed it.
 */
public final class ShopDatabase {

    /** The tables of {@code ddl/shop.sql}. */
    public static final String[] TABLES = {"orders", "order_items", "users"};

    private ShopDatabase() {}

    /** A new database named from {@code prefix}, with the three tables, empty. */
    public static String create(DatabaseServer mariaDb, String prefix) {
        return mariaDb.createDatabase(prefix, "ddl/shop.sql");
    }

    /**
     * Ids 0 to {@code rows - 1} in every table at version 0; orders with an even id are 'paid', the
     * others 'new'.
     */
    public static void seed(DatabaseServer mariaDb, String database, int rows) {
        List<String> inserts = new ArrayList<>();
        for (int id = 0; id < rows; id++) {
            inserts.add(
                    "INSERT INTO orders VALUES ("
                            + id
                            + ", '"
                            + (id % 2 == 0 ? "paid" : "new")
                            + "', 0)");
            inserts.add("INSERT INTO order_items VALUES (" + id + ", " + (id / 2) + ", 0)");
            inserts.add("INSERT INTO users VALUES (" + id + ", 'user" + id + "', 0)");
        }
        mariaDb.execute(database, inserts.toArray(new String[0]));
    }
}
