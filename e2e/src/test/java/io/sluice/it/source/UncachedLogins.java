package io.sluice.it.source;

import io.sluice.it.server.MySqlServer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Logins to MySQL with the account dropped from {@code caching_sha2_password}'s cache before each,
 * as after a server restart: the login then needs TLS or the server's RSA key.
 */
final class UncachedLogins {

    private UncachedLogins() {}

    /**
     * Runs each connection after emptying {@code user}'s cache entry; its outcome by name, {@code
     * "ok: "} and what it returned, or {@code "failed: "} and the exception.
     */
    static Map<String, String> each(
            MySqlServer server,
            String user,
            String password,
            Map<String, Callable<String>> connections) {
        Map<String, String> outcomes = new LinkedHashMap<>();
        for (Map.Entry<String, Callable<String>> connection : connections.entrySet()) {
            forget(server, user, password);
            try {
                outcomes.put(connection.getKey(), "ok: " + connection.getValue().call());
            } catch (Exception e) {
                outcomes.put(connection.getKey(), "failed: " + e);
            }
        }
        return outcomes;
    }

    /** ALTER USER drops the account's entry from caching_sha2_password's cache. */
    static void forget(MySqlServer server, String user, String password) {
        List<String> statements = new ArrayList<>();
        for (String host : List.of("localhost", "127.0.0.1", "%")) {
            statements.add(
                    "ALTER USER '" + user + "'@'" + host + "' IDENTIFIED BY '" + password + "'");
        }
        server.execute(null, statements.toArray(String[]::new));
    }
}
