package io.sluice.it.server;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The statements of a SQL file on the classpath: split at lines ending with {@code ;}, with blank
 * lines and whole-line {@code --} comments dropped. Enough for DDL/DML fixtures; no procedures.
 */
public final class SqlScript {

    private SqlScript() {}

    /** Reads {@code resource} (e.g. {@code ddl/skeleton.sql}) from the classpath. */
    public static List<String> statements(String resource) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        if (loader == null) {
            loader = SqlScript.class.getClassLoader();
        }
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("No SQL resource on the classpath: " + resource);
            }
            return split(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read SQL resource " + resource, e);
        }
    }

    static List<String> split(BufferedReader reader) throws IOException {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line = reader.readLine(); line != null; line = reader.readLine()) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                addIfNotBlank(statements, current);
                current.setLength(0);
            }
        }
        addIfNotBlank(statements, current);
        return statements;
    }

    private static void addIfNotBlank(List<String> statements, StringBuilder statement) {
        String sql = statement.toString().strip();
        if (sql.endsWith(";")) {
            sql = sql.substring(0, sql.length() - 1).strip();
        }
        if (!sql.isEmpty()) {
            statements.add(sql);
        }
    }
}
