package io.sluice.functions;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every record of this module writes out its equals, hashCode and toString. On Java 17 the
 * generated ones adapt method handles that JDK classes hold statically to the record's types
 * (JDK-8078641, fixed in Java 18), so the last record used by a job kept that job's class loader,
 * and all its classes, alive in a session cluster after the job.
 */
class RecordMethodsTest {

    @Test
    void everyRecordWritesOutItsObjectMethods() throws Exception {
        Path classes =
                Paths.get(
                                RecordMethodsTest.class
                                        .getProtectionDomain()
                                        .getCodeSource()
                                        .getLocation()
                                        .toURI())
                        .resolveSibling("classes");
        List<String> records = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String name : classNames(classes)) {
            Class<?> type = Class.forName(name, false, getClass().getClassLoader());
            if (!type.isRecord()) {
                continue;
            }
            records.add(name);
            for (String method : List.of("equals", "hashCode", "toString")) {
                if (!declares(type, method)) {
                    missing.add(name + "." + method);
                }
            }
        }
        assertThat(records).as("records found in %s", classes).isNotEmpty();
        assertThat(missing).as("generated object methods of records").isEmpty();
    }

    private static boolean declares(Class<?> type, String method) {
        try {
            if (method.equals("equals")) {
                type.getDeclaredMethod(method, Object.class);
            } else {
                type.getDeclaredMethod(method);
            }
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static List<String> classNames(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(file -> file.toString().endsWith(".class"))
                    .map(file -> root.relativize(file).toString())
                    .map(file -> file.substring(0, file.length() - ".class".length()))
                    .map(file -> file.replace('/', '.'))
                    .toList();
        }
    }
}
