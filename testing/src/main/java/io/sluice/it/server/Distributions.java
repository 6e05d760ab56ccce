package io.sluice.it.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * What {@link MariaDbDistribution} and {@link MySqlDistribution} share: server binaries unpacked
 * once per work-dir root into a folder that every server start and every test JVM reuses.
 */
final class Distributions {

    /** Unpacks binaries into a folder; may run again over what a killed JVM left half done. */
    @FunctionalInterface
    interface Unpacker {
        void unpackInto(Path dir) throws IOException;
    }

    private static final String COMPLETE_MARKER = ".unpacked";

    private Distributions() {}

    /**
     * The folder {@code name} under {@link ServerDirs#root()}, unpacked by {@code unpacker} unless
     * an earlier start did it. A file lock keeps concurrent JVMs (failsafe's forks, parallel
     * builds) from unpacking at once; a marker file, written last, says the unpack completed.
     * Synchronized because a JVM may not hold two locks on one file.
     */
    static synchronized Path unpackedOnce(String name, Unpacker unpacker) {
        Path dir = ServerDirs.root().resolve(name);
        try {
            Files.createDirectories(dir);
            try (FileChannel lockFile =
                            FileChannel.open(
                                    ServerDirs.root().resolve(name + ".lock"),
                                    StandardOpenOption.CREATE,
                                    StandardOpenOption.WRITE);
                    FileLock ignored = lockFile.lock()) {
                if (!Files.exists(dir.resolve(COMPLETE_MARKER))) {
                    unpacker.unpackInto(dir);
                    Files.writeString(dir.resolve(COMPLETE_MARKER), "complete\n");
                }
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot unpack " + name + " into " + dir, e);
        }
    }

    /** Fails unless this is linux x86_64, the only platform {@code artifact} has binaries for. */
    static void requireLinuxX64(String server, String artifact) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IllegalStateException(
                    server
                            + " only ships the linux x86_64 binary ("
                            + artifact
                            + "), not "
                            + os
                            + "/"
                            + arch);
        }
    }
}
