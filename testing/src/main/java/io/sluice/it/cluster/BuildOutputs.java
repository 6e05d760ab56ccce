package io.sluice.it.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What the build leaves for running on a real cluster: the Flink classpath ({@code
 * tools/flink-cluster/target/flink-lib.classpath}), the shaded job jar ({@code
 * job/target/sluice-job-*-job.jar}) and the JVM flags Flink needs on Java 17. System properties
 * override each ({@code sluice.flink.classpath.file}, {@code sluice.job.jar}); otherwise they are
 * found from the project root ({@code sluice.root}, or the nearest folder above the working dir
 * holding {@code job/} and {@code tools/flink-cluster/}).
 */
public final class BuildOutputs {

    private BuildOutputs() {}

    public static Path root() {
        String given = System.getProperty("sluice.root");
        if (given != null) {
            return Path.of(given).toAbsolutePath();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("job"))
                    && Files.isDirectory(dir.resolve("tools/flink-cluster"))) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "Cannot find the Sluice project root above "
                        + Path.of("").toAbsolutePath()
                        + "; set -Dsluice.root");
    }

    /** The Flink jars of the session cluster, as Maven resolved them. */
    public static String flinkClasspath() {
        Path file =
                Path.of(
                        System.getProperty(
                                "sluice.flink.classpath.file",
                                root().resolve("tools/flink-cluster/target/flink-lib.classpath")
                                        .toString()));
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(
                    file + " is missing: build it with 'mvn -B package -pl tools/flink-cluster'");
        }
        try {
            return Files.readString(file, StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    /** The Flink configuration the cluster starts from ({@code conf/flink/config.yaml}). */
    public static Path flinkConfigDir() {
        return root().resolve("conf/flink");
    }

    /** The shaded job jar. */
    public static Path jobJar() {
        String given = System.getProperty("sluice.job.jar");
        if (given != null) {
            Path jar = Path.of(given);
            if (!Files.isRegularFile(jar)) {
                throw new IllegalStateException("The job jar " + jar + " is missing");
            }
            return jar;
        }
        Path target = root().resolve("job/target");
        List<Path> jars = new ArrayList<>();
        if (Files.isDirectory(target)) {
            try (DirectoryStream<Path> found =
                    Files.newDirectoryStream(target, "sluice-job-*-job.jar")) {
                found.forEach(jars::add);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot list " + target, e);
            }
        }
        if (jars.size() != 1) {
            throw new IllegalStateException(
                    "Expected one sluice-job-*-job.jar in "
                            + target
                            + " but found "
                            + jars
                            + ": build it with 'mvn -B package -pl job -am'");
        }
        return jars.get(0);
    }

    /** The {@code --add-opens} flags Flink's scripts pass on Java 17 (testing/src/main/jvm). */
    public static List<String> jvmOptions() {
        try (InputStream in = BuildOutputs.class.getResourceAsStream("/sluice-jvm.options")) {
            if (in == null) {
                throw new IllegalStateException("sluice-jvm.options is not on the classpath");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return Arrays.stream(text.trim().split("\\s+"))
                    .filter(s -> !s.isEmpty())
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read sluice-jvm.options", e);
        }
    }
}
