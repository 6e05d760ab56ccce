package io.sluice.it.flink;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

import java.time.Duration;

/**
 * A Flink MiniCluster for one test class, sized for a 2-core machine. Jobs submitted through {@code
 * StreamExecutionEnvironment.getExecutionEnvironment()} inside the class run on it.
 *
 * <pre>{@code
 * @RegisterExtension
 * static final MiniClusterExtension FLINK = FlinkMiniCluster.extension(4);
 * }</pre>
 */
public final class FlinkMiniCluster {

    private FlinkMiniCluster() {}

    /** One TaskManager with {@code slots} slots; a failed task restarts quickly, a few times. */
    public static MiniClusterExtension extension(int slots) {
        return extension(slots, new Configuration());
    }

    /** As {@link #extension(int)}, with {@code extra} settings (e.g. a metric reporter) on top. */
    public static MiniClusterExtension extension(int slots, Configuration extra) {
        Configuration config = configuration();
        config.addAll(extra);
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(slots)
                        .setConfiguration(config)
                        .build());
    }

    /** The configuration every test cluster shares. */
    public static Configuration configuration() {
        Configuration config = new Configuration();
        config.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.ofMebiBytes(64));
        config.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.ofMebiBytes(64));
        config.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.ofMebiBytes(64));
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 5);
        config.set(
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
        return config;
    }
}
