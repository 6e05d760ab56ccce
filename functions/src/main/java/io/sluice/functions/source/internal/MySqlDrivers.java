package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.util.UserCodeClassLoader;

import com.mysql.cj.jdbc.NonRegisteringDriver;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collections;

/**
 * MySQL's JDBC driver without the two things that keep a job's class loader alive after the job in
 * a session cluster, where every job brings its own copy of the driver: {@code
 * com.mysql.cj.jdbc.Driver} registers itself with {@code DriverManager} (a JVM-wide static list)
 * when its class is initialized, and Connector/J starts a thread per copy (abandoned-connection
 * cleanup) that never ends and holds the job's loader as its context class loader. Sluice closes
 * every connection it opens, so it does not need that thread.
 */
@Internal
public final class MySqlDrivers {

    /** Connector/J's switch for its abandoned-connection cleanup thread, read once per copy. */
    static final String NO_CLEANUP_THREAD = "com.mysql.cj.disableAbandonedConnectionCleanup";

    private static final String MYSQL_DRIVER = "com.mysql.cj.jdbc.Driver";

    private static volatile boolean prepared;

    private MySqlDrivers() {}

    /**
     * Makes this JVM safe for the jobs' drivers, before any connection of this job: Connector/J's
     * cleanup thread off, and {@code DriverManager} initialized with the system class loader as
     * context. It loads the drivers its context loader can see once per JVM; with a job's loader as
     * context it would register that job's copy of MySQL's driver for good.
     */
    public static void prepare() {
        if (prepared) {
            return;
        }
        synchronized (MySqlDrivers.class) {
            if (prepared) {
                return;
            }
            noCleanupThread();
            Thread thread = Thread.currentThread();
            ClassLoader context = thread.getContextClassLoader();
            thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
            try {
                DriverManager.getDrivers();
            } finally {
                thread.setContextClassLoader(context);
            }
            // getDrivers() itself initializes, and so registers, this loader's copy of MySQL's
            // driver when another job's copy is registered (DriverManager checks each registered
            // driver's class against the caller's loader).
            deregister();
            prepared = true;
        }
    }

    /**
     * Deregisters the JDBC drivers this job's class loader defined. {@code
     * DriverManager.getDrivers()}, which Flink CDC's connection pools call, initializes the
     * caller's copy of every registered driver's class, and {@code com.mysql.cj.jdbc.Driver}
     * registers itself when initialized: once one job's copy is registered, every later job's
     * registers too. Sluice's and Debezium's connections do not look drivers up, so this is safe
     * while the job still reads.
     */
    public static void deregister() {
        ClassLoader own = MySqlDrivers.class.getClassLoader();
        if (own == SourceSplit.class.getClassLoader()) {
            return; // Not a job's own loader (a MiniCluster): its drivers are everyone's.
        }
        noCleanupThread(); // Initializing the driver starts the thread otherwise.
        // Initialized now, this copy registers now, and never again once deregistered below;
        // otherwise getDrivers() may initialize it while the loop reads a copy of the list.
        try {
            Class.forName(MYSQL_DRIVER, true, own);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("The job jar holds no " + MYSQL_DRIVER, e);
        }
        for (Driver driver : Collections.list(DriverManager.getDrivers())) {
            if (driver.getClass().getClassLoader() == own) {
                try {
                    DriverManager.deregisterDriver(driver);
                } catch (SQLException e) {
                    throw new IllegalStateException("Cannot deregister " + driver, e);
                }
            }
        }
    }

    private static void noCleanupThread() {
        if (System.getProperty(NO_CLEANUP_THREAD) == null) {
            System.setProperty(NO_CLEANUP_THREAD, "true");
        }
    }

    /**
     * Deregisters this job's drivers when Flink releases its class loader on a TaskManager, where
     * Flink CDC's connection pools look drivers up (which registers this job's copy when another
     * job's is registered).
     */
    public static void deregisterOnRelease(UserCodeClassLoader loader) {
        loader.registerReleaseHookIfAbsent("sluice-mysql-drivers", MySqlDrivers::deregister);
    }

    /** MySQL's driver, never registered with {@code DriverManager}. */
    public static Driver driver() throws SQLException {
        prepare();
        return new NonRegisteringDriver();
    }
}
