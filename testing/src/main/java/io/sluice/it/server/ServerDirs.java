package io.sluice.it.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where embedded servers keep their data and logs: a fresh folder per server start, under {@code
 * target/it-servers} (or {@code -Dsluice.it.workDir}), so logs outlive a failed test and nothing
 * goes to the home directory. The folders of earlier runs go when the next run starts its first
 * server: one run keeps its servers' data, a few GB, and many runs in one checkout filled disks.
 */
public final class ServerDirs {

    /** System property naming the parent folder of every server's work dir. */
    public static final String WORK_DIR_PROPERTY = "sluice.it.workDir";

    private static final int MAX_SOCKET_PATH = 100;

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("HHmmss-SSS");

    /**
     * Folders last changed this long before this JVM started belong to an earlier run: the forks of
     * one run start within seconds of each other.
     */
    private static final Duration EARLIER_RUN = Duration.ofMinutes(10);

    private static final AtomicBoolean PRUNED = new AtomicBoolean();

    /** The names {@link #fresh} gives: server name, time stamp, temp-dir digits. */
    private static final Pattern FRESH_NAME = Pattern.compile(".+-\\d{6}-\\d{3}-\\d+");

    private ServerDirs() {}

    /** The parent folder of all server work dirs. */
    public static Path root() {
        return Paths.get(System.getProperty(WORK_DIR_PROPERTY, "target/it-servers"))
                .toAbsolutePath();
    }

    /** Creates a new, empty folder for one start of the named server. */
    public static Path fresh(String serverName) {
        try {
            Files.createDirectories(root());
            if (PRUNED.compareAndSet(false, true)) {
                removeEarlierRuns();
            }
            return Files.createTempDirectory(
                    root(), serverName + "-" + LocalDateTime.now().format(STAMP) + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot create a work dir for " + serverName + " under " + root(), e);
        }
    }

    private static void removeEarlierRuns() throws IOException {
        Instant before =
                Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime())
                        .minus(EARLIER_RUN);
        try (Stream<Path> dirs = Files.list(root())) {
            for (Path dir : (Iterable<Path>) dirs::iterator) {
                // Only folders fresh() made: the root may be a folder others use too.
                if (FRESH_NAME.matcher(dir.getFileName().toString()).matches()
                        && Files.isDirectory(dir)
                        && Files.getLastModifiedTime(dir).toInstant().isBefore(before)) {
                    removeQuietly(dir);
                }
            }
        }
    }

    /** Removes what it can: a file a server still holds open elsewhere is left. */
    private static void removeQuietly(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(
                            path -> {
                                try {
                                    Files.deleteIfExists(path);
                                } catch (IOException e) {
                                    // left for the next run
                                }
                            });
        } catch (IOException | UncheckedIOException e) {
            // left for the next run
        }
    }

    /**
     * A Unix socket {@code name} in {@code workDir}, or {@code fallbackName} in the tmp dir where
     * that path would be too long: socket paths are limited to ~107 bytes, and checkouts can be
     * deep.
     */
    static String socketPath(Path workDir, String name, String fallbackName) {
        String inWorkDir = workDir.resolve(name).toString();
        return inWorkDir.length() <= MAX_SOCKET_PATH
                ? inWorkDir
                : Paths.get(System.getProperty("java.io.tmpdir"), fallbackName).toString();
    }
}
