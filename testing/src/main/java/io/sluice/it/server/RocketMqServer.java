package io.sluice.it.server;

import org.apache.rocketmq.broker.BrokerController;
import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.client.exception.MQClientException;
import org.apache.rocketmq.common.BrokerConfig;
import org.apache.rocketmq.common.MQVersion;
import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.common.TopicConfig;
import org.apache.rocketmq.common.constant.PermName;
import org.apache.rocketmq.common.consumer.ConsumeFromWhere;
import org.apache.rocketmq.common.logging.JoranConfiguratorExt;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.namesrv.NamesrvConfig;
import org.apache.rocketmq.logging.ch.qos.logback.classic.LoggerContext;
import org.apache.rocketmq.namesrv.NamesrvController;
import org.apache.rocketmq.remoting.common.TlsMode;
import org.apache.rocketmq.remoting.netty.NettyClientConfig;
import org.apache.rocketmq.remoting.netty.NettyServerConfig;
import org.apache.rocketmq.remoting.netty.TlsSystemConfig;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;
import org.apache.rocketmq.remoting.protocol.body.ClusterInfo;
import org.apache.rocketmq.remoting.protocol.route.BrokerData;
import org.apache.rocketmq.remoting.protocol.route.TopicRouteData;
import org.apache.rocketmq.store.config.MessageStoreConfig;
import org.apache.rocketmq.tools.admin.DefaultMQAdminExt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * An in-JVM RocketMQ 5.3 name server plus one master broker on 127.0.0.1, with every store, config
 * and log file in a fresh {@link ServerDirs} folder. Sized for a small shared machine: small mapped
 * files, few threads, no timer wheel.
 *
 * <p>Clients must keep the VIP channel off (the 5.x default): the broker's second ("fast") port is
 * OS-assigned, not {@code port - 2}.
 */
public final class RocketMqServer implements AutoCloseable, CommittedMessages {

    /** Cluster every broker of this server registers in. */
    public static final String CLUSTER_NAME = "SluiceCluster";

    /** Name of the single (master) broker. */
    public static final String BROKER_NAME = "sluice-broker";

    private static final Logger LOG = LoggerFactory.getLogger(RocketMqServer.class);

    /** RocketMQ's shaded logback reads its config file from this property at first use. */
    private static final String LOGBACK_CONFIG_PROPERTY = "rmq.logback.configurationFile";

    private static final Duration REGISTRATION_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration UNREGISTER_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration DRAIN_QUIET_PERIOD = Duration.ofSeconds(1);
    private static final Duration DRAIN_ALL_LIMIT = Duration.ofMinutes(5);
    private static final long POLL_MILLIS = 200;
    private static final int DRAIN_PULL_THREADS = 16;

    private static final AtomicLong CLIENT_SEQUENCE = new AtomicLong();

    /** Whether {@link #LOGBACK_CONFIG_PROPERTY} was set by us (and may be re-pointed per start). */
    private static final boolean OWN_LOG_CONFIG;

    static {
        // JVM-wide settings, needed before the first RocketMQ class initializes (1, 2) or the first
        // remoting server is built (3); a user's own -D values win.
        //
        // 1. Logging: without a config file RocketMQ's shaded logback auto-loads the broker jar's
        //    rmq.broker.logback.xml, which at once opens files under ~/logs/rocketmqlogs. Our own
        //    config keeps every RocketMQ log line under the work dirs.
        // 2. Remoting version, as BrokerStartup/NamesrvStartup set it: requests carry it, and the
        //    name server decodes a broker registration without it (version 0) in the pre-3.0.11
        //    format. The client sets it too, but the broker registers before any client exists.
        // 3. TLS: the server default is "permissive", which generates a self-signed certificate
        //    per remoting server (slow on 2 cores); nothing here speaks TLS.
        OWN_LOG_CONFIG = System.getProperty(LOGBACK_CONFIG_PROPERTY) == null;
        if (OWN_LOG_CONFIG) {
            Path root = ServerDirs.root();
            Path config = root.resolve("rocketmq-logback.xml");
            writeLogbackConfig(config, root.resolve("rocketmq.log"));
            System.setProperty(LOGBACK_CONFIG_PROPERTY, config.toString());
        }
        if (System.getProperty(RemotingCommand.REMOTING_VERSION_KEY) == null) {
            System.setProperty(
                    RemotingCommand.REMOTING_VERSION_KEY,
                    Integer.toString(MQVersion.CURRENT_VERSION));
        }
        if (System.getProperty(TlsSystemConfig.TLS_SERVER_MODE) == null) {
            TlsSystemConfig.tlsMode = TlsMode.DISABLED;
        }
    }

    private final Path workDir;
    private final NamesrvController nameServer;
    private final Settings settings;
    private final SendRefusals refusals;
    private volatile BrokerController broker;
    private final DefaultMQAdminExt admin;
    private final String nameServerAddress;
    private final String brokerAddress;
    private final Thread shutdownHook;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Set<String> createdTopics = ConcurrentHashMap.newKeySet();

    private RocketMqServer(
            Path workDir,
            NamesrvController nameServer,
            BrokerController broker,
            DefaultMQAdminExt admin,
            Settings settings,
            SendRefusals refusals) {
        this.settings = settings;
        this.refusals = refusals;
        this.workDir = workDir;
        this.nameServer = nameServer;
        this.broker = broker;
        this.admin = admin;
        this.nameServerAddress = "127.0.0.1:" + nameServer.getNettyServerConfig().getListenPort();
        this.brokerAddress = broker.getBrokerAddr();
        this.shutdownHook = new Thread(this::stop, "rocketmq-server-shutdown-hook");
    }

    /** Starts a name server and a broker with {@link Settings#DEFAULTS}. */
    public static RocketMqServer start() {
        return start(Settings.DEFAULTS);
    }

    /** Starts a name server and a broker; returns once the name server lists the broker. */
    public static RocketMqServer start(Settings settings) {
        long begin = System.nanoTime();
        Path workDir = ServerDirs.fresh("rocketmq");
        routeLogsTo(workDir.resolve("logs"));

        NamesrvController nameServer = startNameServer(workDir.resolve("namesrv"));
        String nameServerAddress = "127.0.0.1:" + nameServer.getNettyServerConfig().getListenPort();
        BrokerController broker = null;
        DefaultMQAdminExt admin = null;
        SendRefusals refusals = new SendRefusals();
        try {
            broker =
                    startBroker(
                            workDir.resolve("broker"), nameServerAddress, settings, refusals, 0);
            admin = startAdmin(nameServerAddress);
            RocketMqServer server =
                    new RocketMqServer(workDir, nameServer, broker, admin, settings, refusals);
            server.awaitBrokerRegistered();
            Runtime.getRuntime().addShutdownHook(server.shutdownHook);
            LOG.info(
                    "RocketMQ name server {} and broker {} up in {} ms; work dir {}",
                    server.nameServerAddress,
                    server.brokerAddress,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin),
                    workDir);
            return server;
        } catch (RuntimeException e) {
            shutdownBounded("admin client", admin == null ? null : admin::shutdown);
            shutdownBounded("broker", broker == null ? null : broker::shutdown);
            shutdownBounded("name server", nameServer::shutdown);
            throw new IllegalStateException(
                    "RocketMQ did not start; see the logs under " + workDir.resolve("logs"), e);
        }
    }

    /** "127.0.0.1:port" of the name server, for {@code namesrvAddr}. */
    public String nameServerAddress() {
        return nameServerAddress;
    }

    /** "127.0.0.1:port" of the broker. */
    public String brokerAddress() {
        return brokerAddress;
    }

    /** The folder holding this server's store, configs and logs. */
    public Path workDir() {
        return workDir;
    }

    /**
     * Stops the broker and starts it again on the same port and store, as after a crash-free
     * restart: committed messages survive, clients see the broker go away and come back. Returns
     * once the name server lists it again.
     */
    public void restartBroker() {
        int port = broker.getNettyServerConfig().getListenPort();
        long begin = System.nanoTime();
        shutdownBounded("broker " + brokerAddress, broker::shutdown);
        broker =
                startBroker(workDir.resolve("broker"), nameServerAddress, settings, refusals, port);
        awaitBrokerRegistered();
        LOG.info(
                "RocketMQ broker {} restarted in {} ms",
                brokerAddress,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin));
    }

    /**
     * From now on the broker fails each send request {@code rule} matches, storing nothing of it,
     * as a broker failing a request would; {@code null} lets every send through again. The rule
     * runs on the broker's request threads, once per request, and survives {@link
     * #restartBroker()}.
     */
    public void refuseSends(Predicate<SendRequest> rule) {
        refusals.refuse(rule);
    }

    /**
     * Creates (or updates) {@code topic} with {@code queues} read and write queues and waits until
     * the name server routes it with that many queues, so a producer sees them on its first send.
     */
    public void createTopic(String topic, int queues) {
        if (queues < 1) {
            throw new IllegalArgumentException("A topic needs at least one queue, got " + queues);
        }
        // The broker would silently update a topic that exists; on a shared server that is
        // another test's topic, whose messages this test would then read.
        if (!createdTopics.add(topic)) {
            throw new IllegalStateException(
                    "Topic "
                            + topic
                            + " exists on this RocketMQ server already: tests that share a"
                            + " server each create topics of their own names");
        }
        TopicConfig config =
                new TopicConfig(topic, queues, queues, PermName.PERM_READ | PermName.PERM_WRITE);
        try {
            admin.createAndUpdateTopicConfig(brokerAddress, config);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topic " + topic, e);
        } catch (Exception e) {
            throw new IllegalStateException(
                    "Cannot create topic " + topic + " on broker " + brokerAddress, e);
        }
        Waits.until(
                "the name server "
                        + nameServerAddress
                        + " to route "
                        + topic
                        + " with "
                        + queues
                        + " queues",
                TOPIC_TIMEOUT,
                () -> routedQueues(topic) == queues);
    }

    @Override
    public List<byte[]> committedValues(String topic, int count, Duration timeout) {
        List<byte[]> values = new ArrayList<>();
        drain(topic, count, timeout).forEach(message -> values.add(message.getBody()));
        return values;
    }

    /**
     * Reads every queue of {@code topic} from offset 0 until at least {@code expectedCount}
     * messages arrived and then nothing more for a short quiet period, or {@code timeout} passed
     * (then returns what was read, so the caller's assertion shows the difference).
     *
     * @return the messages ordered by queue id, then queue offset (per-queue order)
     */
    public List<MessageExt> drain(String topic, int expectedCount, Duration timeout) {
        return read(
                topic,
                timeout,
                false,
                reading ->
                        reading.count() >= expectedCount
                                && reading.quietFor().compareTo(DRAIN_QUIET_PERIOD) >= 0);
    }

    /**
     * Reads every queue of {@code topic} from offset 0 until each queue is read up to the broker's
     * current end and nothing new arrived for {@code quietPeriod}.
     *
     * @return the messages ordered by queue id, then queue offset (per-queue order)
     * @throws IllegalStateException if messages keep arriving for more than 5 minutes
     */
    public List<MessageExt> drainAll(String topic, Duration quietPeriod) {
        return read(
                topic,
                DRAIN_ALL_LIMIT,
                true,
                reading ->
                        reading.quietFor().compareTo(quietPeriod) >= 0 && reading.caughtUp(broker));
    }

    private List<MessageExt> read(
            String topic, Duration timeout, boolean failOnTimeout, Predicate<Reading> done) {
        DefaultLitePullConsumer consumer = newDrainConsumer();
        try {
            consumer.start();
            // A fresh group reading from the first offset starts every queue at 0. No seek():
            // in 5.3 it races with the pull already started by assign() and can drop a batch.
            consumer.assign(consumer.fetchMessageQueues(topic));
            Reading reading = new Reading(topic);
            long started = System.nanoTime();
            long deadline = started + timeout.toNanos();
            while (!done.test(reading)) {
                if (System.nanoTime() > deadline) {
                    if (failOnTimeout) {
                        throw new IllegalStateException(
                                "Messages kept arriving in "
                                        + topic
                                        + " for "
                                        + timeout
                                        + "; read "
                                        + reading.count()
                                        + " so far");
                    }
                    LOG.warn(
                            "Reading {} timed out after {} with {} messages",
                            topic,
                            timeout,
                            reading.count());
                    break;
                }
                reading.add(consumer.poll(POLL_MILLIS));
            }
            LOG.info(
                    "Read {} messages of {} in {} ms",
                    reading.count(),
                    topic,
                    (System.nanoTime() - started) / 1_000_000);
            return reading.inQueueOrder();
        } catch (MQClientException e) {
            throw new IllegalStateException(
                    "Cannot read topic " + topic + " via name server " + nameServerAddress, e);
        } finally {
            consumer.shutdown();
        }
    }

    private DefaultLitePullConsumer newDrainConsumer() {
        long sequence = CLIENT_SEQUENCE.incrementAndGet();
        DefaultLitePullConsumer consumer =
                new DefaultLitePullConsumer(
                        "sluice-it-drain-" + sequence + "-" + System.nanoTime());
        consumer.setNamesrvAddr(nameServerAddress);
        consumer.setInstanceName("sluice-it-drain-" + sequence);
        consumer.setVipChannelEnabled(false);
        consumer.setAutoCommit(false);
        consumer.setConsumeFromWhere(ConsumeFromWhere.CONSUME_FROM_FIRST_OFFSET);
        // A pull of a queue read to its end waits at the broker (long polling, up to 20 s) and
        // holds its thread: with fewer threads than queues, the other queues' messages wait too.
        consumer.setPullThreadNums(DRAIN_PULL_THREADS);
        consumer.setPullBatchSize(64);
        return consumer;
    }

    /**
     * Shuts down the broker and, once it left the name server's routes, the name server; waits at
     * most 20 s for each (a hung part is logged and left to its daemon thread). Idempotent.
     */
    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is already shutting down; the hook does the work.
        }
        stop();
    }

    private void stop() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        long begin = System.nanoTime();
        // Each part mostly waits for RocketMQ service threads to idle out 2-3 s poll timeouts, so
        // they stop side by side: the admin client and the broker at once, and the name server as
        // soon as the broker unregistered from it (the broker's first shutdown step).
        Thread adminStop = startDaemon("admin client", admin::shutdown);
        Thread brokerStop = startDaemon("broker " + brokerAddress, broker::shutdown);
        try {
            Waits.until(
                    "broker " + brokerAddress + " to unregister from the name server",
                    UNREGISTER_TIMEOUT,
                    () -> !brokerStop.isAlive() || !nameServerRoutesBroker());
        } catch (IllegalStateException e) {
            LOG.warn("Stopping the name server while the broker may still be registered", e);
        }
        Thread nameServerStop =
                startDaemon("name server " + nameServerAddress, nameServer::shutdown);
        joinBounded(adminStop);
        joinBounded(brokerStop);
        joinBounded(nameServerStop);
        LOG.info(
                "RocketMQ stopped in {} ms; work dir {}",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - begin),
                workDir);
    }

    // ---------------------------------------------------------------------------------------
    // Start-up

    private static NamesrvController startNameServer(Path dir) {
        NamesrvConfig config = new NamesrvConfig();
        config.setKvConfigPath(dir.resolve("kvConfig.json").toString());
        config.setConfigStorePath(dir.resolve("namesrv.properties").toString());
        config.setClientRequestThreadPoolNums(2);
        config.setDefaultThreadPoolNums(2);

        NamesrvController controller =
                new NamesrvController(config, leanServerConfig(), leanClientConfig());
        try {
            if (!controller.initialize()) {
                throw new IllegalStateException("RocketMQ name server did not initialize");
            }
            controller.start();
        } catch (Exception e) {
            shutdownBounded("name server", controller::shutdown);
            throw new IllegalStateException("RocketMQ name server did not start", e);
        }
        requireListening("name server", controller.getNettyServerConfig().getListenPort());
        return controller;
    }

    private static BrokerController startBroker(
            Path dir,
            String nameServerAddress,
            Settings settings,
            SendRefusals refusals,
            int port) {
        BrokerConfig config = new BrokerConfig();
        config.setBrokerClusterName(CLUSTER_NAME);
        config.setBrokerName(BROKER_NAME);
        config.setBrokerId(MixAll.MASTER_ID);
        config.setBrokerIP1("127.0.0.1");
        config.setBrokerIP2("127.0.0.1");
        config.setNamesrvAddr(nameServerAddress);
        // Else the path defaults to a static ~/store/config/broker.properties.
        config.setBrokerConfigPath(dir.resolve("config").resolve("broker.properties").toString());
        config.setAutoCreateTopicEnable(false);
        config.setAutoCreateSubscriptionGroup(true);
        config.setRegisterNameServerPeriod(10_000);
        config.setTransactionCheckInterval(settings.transactionCheckInterval().toMillis());
        config.setTransactionTimeOut(settings.transactionTimeout().toMillis());
        config.setTransactionCheckMax(settings.transactionCheckMax());
        // A loaded 2-core box can queue a request for >200 ms; fail slow rather than "busy".
        config.setBrokerFastFailureEnable(false);
        config.setSendMessageThreadPoolNums(2);
        config.setPutMessageFutureThreadPoolNums(2);
        config.setPullMessageThreadPoolNums(4);
        config.setLitePullMessageThreadPoolNums(4);
        config.setAckMessageThreadPoolNums(2);
        config.setProcessReplyMessageThreadPoolNums(2);
        config.setQueryMessageThreadPoolNums(2);
        config.setAdminBrokerThreadPoolNums(2);
        config.setClientManageThreadPoolNums(2);
        config.setConsumerManageThreadPoolNums(2);
        config.setLoadBalanceProcessorThreadPoolNums(2);
        config.setHeartbeatThreadPoolNums(2);
        config.setEndTransactionThreadPoolNums(4);
        config.setRecoverThreadPoolNums(2);
        // POP consumption needs the timer wheel (off below); its services would be 9 idle
        // threads and 2 s more shutdown.
        config.setPopConsumerFSServiceInit(false);

        MessageStoreConfig store = new MessageStoreConfig();
        store.setStorePathRootDir(dir.toString());
        store.setStorePathCommitLog(dir.resolve("commitlog").toString());
        store.setStorePathEpochFile(dir.resolve("epochFileCheckpoint").toString());
        store.setStorePathBrokerIdentity(dir.resolve("brokerIdentity").toString());
        store.setMappedFileSizeCommitLog(settings.commitLogFileSize());
        // 20 bytes per entry: 100k messages per queue file instead of 300k.
        store.setMappedFileSizeConsumeQueue(100_000 * 20);
        store.setMaxIndexNum(100_000);
        store.setMaxHashSlotNum(25_000);
        // The timer wheel maps ~100 MB and runs ~8 threads; delayed messages are not needed.
        store.setTimerWheelEnable(false);
        store.setHaListenPort(0);
        // A GC pause under a held put lock must not turn into "[PC_SYNCHRONIZED]broker busy".
        store.setOsPageCacheBusyTimeOutMills(10_000);
        // Shared disks may be fuller than RocketMQ's 90 % write cut-off.
        store.setDiskSpaceWarningLevelRatio(98);
        store.setDiskSpaceCleanForciblyRatio(97);

        // Port 0: the OS picks the main and the "fast" port (which would be port - 2 otherwise).
        NettyServerConfig server = leanServerConfig();
        server.setListenPort(port);
        BrokerController controller =
                new BrokerController(config, server, leanClientConfig(), store);
        try {
            if (!controller.initialize()) {
                throw new IllegalStateException(
                        "RocketMQ broker did not initialize its store in " + dir);
            }
            // After initialize (which builds the remoting servers), before they serve.
            controller.registerServerRPCHook(refusals);
            controller.start();
        } catch (Exception e) {
            shutdownBounded("broker", controller::shutdown);
            throw new IllegalStateException("RocketMQ broker did not start", e);
        }
        requireListening("broker", controller.getNettyServerConfig().getListenPort());
        return controller;
    }

    private static NettyServerConfig leanServerConfig() {
        NettyServerConfig config = new NettyServerConfig();
        config.setBindAddress("127.0.0.1");
        config.setListenPort(0);
        config.setServerSelectorThreads(1);
        config.setServerWorkerThreads(2);
        config.setServerCallbackExecutorThreads(2);
        return config;
    }

    private static NettyClientConfig leanClientConfig() {
        NettyClientConfig config = new NettyClientConfig();
        config.setClientWorkerThreads(2);
        config.setClientCallbackExecutorThreads(2);
        return config;
    }

    private static DefaultMQAdminExt startAdmin(String nameServerAddress) {
        DefaultMQAdminExt admin = new DefaultMQAdminExt(10_000);
        admin.setNamesrvAddr(nameServerAddress);
        // A unique instance name keeps this client off other servers' shared client instances.
        admin.setInstanceName("sluice-it-admin-" + CLIENT_SEQUENCE.incrementAndGet());
        admin.setVipChannelEnabled(false);
        try {
            admin.start();
        } catch (MQClientException e) {
            throw new IllegalStateException(
                    "RocketMQ admin client did not start for " + nameServerAddress, e);
        }
        return admin;
    }

    private static void requireListening(String what, int port) {
        if (port <= 0 || !FreePorts.isListening(port)) {
            throw new IllegalStateException(
                    "RocketMQ " + what + " does not listen on 127.0.0.1:" + port);
        }
    }

    /**
     * The broker's registration in {@code start()} goes only to name servers its remoting client
     * already marked available, which an asynchronous scan does just after start: the first
     * registration is usually silently skipped and the periodic one is 10 s away. So register again
     * (twice a second) until the name server lists the broker.
     */
    private void awaitBrokerRegistered() {
        long[] lastAttempt = {System.nanoTime()};
        Waits.until(
                "the name server " + nameServerAddress + " to list broker " + brokerAddress,
                REGISTRATION_TIMEOUT,
                () -> {
                    if (nameServerListsBroker()) {
                        return true;
                    }
                    if (System.nanoTime() - lastAttempt[0] > TimeUnit.MILLISECONDS.toNanos(500)) {
                        LOG.info("Broker {} not listed yet; registering again", brokerAddress);
                        broker.registerBrokerAll(true, false, true);
                        lastAttempt[0] = System.nanoTime();
                    }
                    return false;
                });
    }

    /** Asks the name server over the network, as clients do. */
    private boolean nameServerListsBroker() throws Exception {
        return listsBroker(admin.examineBrokerClusterInfo());
    }

    /** Looks into the name server's route table in this JVM (used while shutting down). */
    private boolean nameServerRoutesBroker() {
        return listsBroker(nameServer.getRouteInfoManager().getAllClusterInfo());
    }

    private boolean listsBroker(ClusterInfo cluster) {
        BrokerData data = cluster.getBrokerAddrTable().get(BROKER_NAME);
        return data != null && brokerAddress.equals(data.getBrokerAddrs().get(MixAll.MASTER_ID));
    }

    /** Write queues the name server routes for {@code topic} on our broker (throws if none). */
    private int routedQueues(String topic) throws Exception {
        TopicRouteData route = admin.examineTopicRouteInfo(topic);
        return route.getQueueDatas().stream()
                .filter(queue -> BROKER_NAME.equals(queue.getBrokerName()))
                .filter(queue -> queue.getReadQueueNums() == queue.getWriteQueueNums())
                .mapToInt(queue -> queue.getWriteQueueNums())
                .findFirst()
                .orElse(0);
    }

    // ---------------------------------------------------------------------------------------
    // Shutdown and logging helpers

    /** Runs {@code action} in a daemon thread and stops waiting for it after 20 s. */
    private static void shutdownBounded(String what, Runnable action) {
        if (action != null) {
            joinBounded(startDaemon(what, action));
        }
    }

    /** A daemon, so a shutdown that hangs cannot keep the JVM alive. */
    private static Thread startDaemon(String what, Runnable action) {
        Thread thread =
                new Thread(
                        () -> {
                            try {
                                action.run();
                            } catch (RuntimeException e) {
                                LOG.warn("Shutting down RocketMQ {} failed", what, e);
                            }
                        },
                        "rocketmq-shutdown-" + what.replace(' ', '-'));
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void joinBounded(Thread thread) {
        try {
            thread.join(SHUTDOWN_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            LOG.warn(
                    "{} did not finish within {}; continuing without it",
                    thread.getName(),
                    SHUTDOWN_TIMEOUT);
        }
    }

    /**
     * Re-points RocketMQ's (JVM-wide) shaded logback at {@code logDir}/rocketmq.log, so each
     * server's logs sit in its own work dir. Skipped if the user configured RocketMQ logging.
     */
    private static void routeLogsTo(Path logDir) {
        if (!OWN_LOG_CONFIG) {
            return;
        }
        Path config = logDir.resolve("rocketmq-logback.xml");
        writeLogbackConfig(config, logDir.resolve("rocketmq.log"));
        Object factory = org.apache.rocketmq.logging.org.slf4j.LoggerFactory.getILoggerFactory();
        if (!(factory instanceof LoggerContext)) {
            LOG.warn("RocketMQ logging is not logback ({}); its logs stay where they are", factory);
            return;
        }
        LoggerContext context = (LoggerContext) factory;
        try {
            context.reset();
            JoranConfiguratorExt configurator = new JoranConfiguratorExt();
            configurator.setContext(context);
            configurator.doConfigure0(config.toUri().toURL());
        } catch (Exception e) {
            LOG.warn("Cannot point RocketMQ logging at {}", config, e);
        }
    }

    private static void writeLogbackConfig(Path config, Path logFile) {
        String file =
                logFile.toAbsolutePath()
                        .toString()
                        .replace("&", "&amp;")
                        .replace("<", "&lt;")
                        .replace(">", "&gt;");
        // RocketMQ rewrites "ch.qos.logback" class names to its shaded package when loading.
        String xml =
                String.join(
                        "\n",
                        "<configuration>",
                        "  <appender name=\"FILE\" class=\"ch.qos.logback.core.FileAppender\">",
                        "    <file>" + file + "</file>",
                        "    <append>true</append>",
                        "    <encoder>",
                        "      <pattern>%d{HH:mm:ss.SSS} %-5p [%t] %c - %m%n</pattern>",
                        "    </encoder>",
                        "  </appender>",
                        "  <logger name=\"RocketmqNamesrvWaterMark\" level=\"WARN\"/>",
                        "  <logger name=\"RocketmqWaterMark\" level=\"WARN\"/>",
                        "  <logger name=\"RocketmqCommercial\" level=\"WARN\"/>",
                        "  <logger name=\"RocketmqStats\" level=\"WARN\"/>",
                        "  <root level=\"INFO\">",
                        "    <appender-ref ref=\"FILE\"/>",
                        "  </root>",
                        "</configuration>",
                        "");
        try {
            Files.createDirectories(config.getParent());
            Files.write(config, xml.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write RocketMQ log config " + config, e);
        }
    }

    // ---------------------------------------------------------------------------------------
    // Nested types

    /** One send request as the broker got it: topic, queue and messages (a batch's, in order). */
    public record SendRequest(String topic, int queueId, List<Message> messages) {}

    /** Broker knobs tests may want to change; everything else is fixed and lean. */
    public record Settings(
            Duration transactionCheckInterval,
            Duration transactionTimeout,
            int transactionCheckMax,
            int commitLogFileSize) {

        public Settings {
            if (transactionCheckInterval.isNegative()
                    || transactionCheckInterval.isZero()
                    || transactionTimeout.isNegative()
                    || transactionCheckMax < 1
                    || commitLogFileSize < 1024 * 1024) {
                throw new IllegalArgumentException(
                        "Check interval must be > 0, timeout >= 0, check max >= 1 and commit log"
                                + " files >= 1 MB: "
                                + transactionCheckInterval
                                + ", "
                                + transactionTimeout
                                + ", "
                                + transactionCheckMax
                                + ", "
                                + commitLogFileSize);
            }
        }

        /**
         * Checks open transactions every 2 s once they are 6 s old, at most 15 times (RocketMQ's
         * default; then the half message is dropped); 64 MB commit log files.
         */
        public static final Settings DEFAULTS =
                new Settings(Duration.ofSeconds(2), Duration.ofSeconds(6), 15, 64 * 1024 * 1024);

        public Settings withTransactionCheckInterval(Duration interval) {
            return new Settings(
                    interval, transactionTimeout, transactionCheckMax, commitLogFileSize);
        }

        public Settings withTransactionTimeout(Duration timeout) {
            return new Settings(
                    transactionCheckInterval, timeout, transactionCheckMax, commitLogFileSize);
        }

        public Settings withTransactionCheckMax(int checkMax) {
            return new Settings(
                    transactionCheckInterval, transactionTimeout, checkMax, commitLogFileSize);
        }

        public Settings withCommitLogFileSize(int bytes) {
            return new Settings(
                    transactionCheckInterval, transactionTimeout, transactionCheckMax, bytes);
        }
    }

    /** Messages read so far, per queue and offset (a re-delivered offset is kept once). */
    private static final class Reading {
        private final String topic;
        private final Map<Integer, TreeMap<Long, MessageExt>> byQueue = new TreeMap<>();
        private long lastArrival = System.nanoTime();
        private int count;

        Reading(String topic) {
            this.topic = topic;
        }

        void add(List<MessageExt> messages) {
            for (MessageExt message : messages) {
                MessageExt previous =
                        byQueue.computeIfAbsent(message.getQueueId(), id -> new TreeMap<>())
                                .putIfAbsent(message.getQueueOffset(), message);
                if (previous == null) {
                    count++;
                    lastArrival = System.nanoTime();
                }
            }
        }

        int count() {
            return count;
        }

        Duration quietFor() {
            return Duration.ofNanos(System.nanoTime() - lastArrival);
        }

        /** Whether every queue was read up to the broker's current end of that queue. */
        boolean caughtUp(BrokerController broker) {
            TopicConfig config = broker.getTopicConfigManager().selectTopicConfig(topic);
            int queues = config == null ? 0 : config.getReadQueueNums();
            for (int queue = 0; queue < queues; queue++) {
                long end;
                try {
                    end = broker.getMessageStore().getMaxOffsetInQueue(topic, queue);
                } catch (Exception e) {
                    throw new IllegalStateException(
                            "Cannot read the end offset of " + topic + " queue " + queue, e);
                }
                TreeMap<Long, MessageExt> read = byQueue.get(queue);
                long next = read == null || read.isEmpty() ? 0 : read.lastKey() + 1;
                if (next < end) {
                    return false;
                }
            }
            return true;
        }

        List<MessageExt> inQueueOrder() {
            List<MessageExt> ordered = new ArrayList<>(count);
            byQueue.values().forEach(queue -> ordered.addAll(queue.values()));
            return ordered;
        }
    }
}
