package io.sluice.it.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Where embedded servers keep their data and logs: a fresh folder per server start, under {@code
 * target/it-servers} (or {@code -Dsluice.it.workDir}), so logs outlive a failed test and nothing
 * goes to the home directory.
 */
public final class ServerDirs {

    /** System property naming the parent folder of every server's work dir. */
    public static final String WORK_DIR_PROPERTY = "sluice.it.workDir";

    private static final int MAX_SOCKET_PATH = 100;

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("HHmmss-SSS");

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
            return Files.createTempDirectory(
                    root(), serverName + "-" + LocalDateTime.now().format(STAMP) + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot create a work dir for " + serverName + " under " + root(), e);
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
