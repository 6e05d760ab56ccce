package io.sluice.it.server;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.server.MetaProperties;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import scala.Option;

/**
 * A real single-node Kafka 3.4 (KRaft, broker and controller in one {@link KafkaRaftServer}) in
 * this JVM, on free 127.0.0.1 ports, with its log dirs in a fresh {@link ServerDirs} folder.
 * Internal topics have replication factor 1; topics are never auto-created. Clients connect over
 * plain TCP, or with SASL/PLAIN and ACLs ({@link KafkaSecurity}); the server's own admin, producer
 * and drains then log in as the super user.
 */
public final class KafkaServer implements AutoCloseable, CommittedMessages {

    /** The broker's {@code transaction.max.timeout.ms}: producers may not ask for more. */
    public static final Duration MAX_TRANSACTION_TIMEOUT = Duration.ofMinutes(15);

    /** One-partition topic holding the start-up check's single committed record. */
    public static final String WARM_UP_TOPIC = "_sluice_warm_up";

    private static final Logger LOG = LoggerFactory.getLogger(KafkaServer.class);

    private static final int NODE_ID = 1;
    private static final int START_ATTEMPTS = 3;
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration WARM_UP_ATTEMPT_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration ADMIN_CALL_TIMEOUT = Duration.ofSeconds(15);
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration DRAIN_GRACE = Duration.ofSeconds(1);
    private static final Duration DRAIN_ALL_LIMIT = Duration.ofMinutes(5);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final AtomicLong CLIENT_SEQUENCE = new AtomicLong();

    private final KafkaRaftServer server;
    private final String bootstrapServers;
    private final KafkaSecurity security;
    private final Path workDir;
    private final Admin admin;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final Thread shutdownHook;

    private KafkaServer(
            KafkaRaftServer server, String bootstrapServers, KafkaSecurity security, Path workDir) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
        this.security = security;
        this.workDir = workDir;
        this.admin = Admin.create(adminConfig());
        this.shutdownHook = new Thread(this::stopOnce, "kafka-" + bootstrapServers + "-hook");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Formats fresh storage and starts the broker; returns once the broker is in the cluster
     * metadata and one transactional produce/commit went through (which also creates the
     * transaction state topic, so a test's first transaction is not the slow one).
     */
    public static KafkaServer start() {
        return start(KafkaSecurity.none());
    }

    /** Like {@link #start()}, with the client listener secured as {@code security} says. */
    public static KafkaServer start(KafkaSecurity security) {
        RuntimeException failure = null;
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                return startOnce(security);
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
                // Only a lost race for a free port is worth another try.
                if (!causedByBindFailure(e)) {
                    break;
                }
            }
        }
        throw failure;
    }

    private static KafkaServer startOnce(KafkaSecurity security) {
        long startNanos = System.nanoTime();
        Path workDir = ServerDirs.fresh("kafka");
        int port = FreePorts.next();
        int controllerPort = FreePorts.next();
        while (controllerPort == port) {
            controllerPort = FreePorts.next();
        }
        KafkaConfig config =
                new KafkaConfig(brokerProperties(workDir, port, controllerPort, security), false);
        formatStorage(config, workDir);

        String bootstrapServers = "127.0.0.1:" + port;
        KafkaRaftServer raftServer = new KafkaRaftServer(config, Time.SYSTEM, Option.empty());
        try {
            raftServer.startup();
        } catch (RuntimeException e) {
            shutDown(raftServer, bootstrapServers);
            throw new IllegalStateException(
                    "Kafka did not start on " + bootstrapServers + " (work dir " + workDir + ")",
                    e);
        }
        KafkaServer server = new KafkaServer(raftServer, bootstrapServers, security, workDir);
        try {
            server.awaitReady();
        } catch (RuntimeException e) {
            server.close();
            throw new IllegalStateException(
                    "Kafka on "
                            + bootstrapServers
                            + " did not get ready (work dir "
                            + workDir
                            + ")",
                    e);
        }
        LOG.info(
                "Kafka ready on {} in {} ms, work dir {}",
                server.bootstrapServers,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                workDir);
        return server;
    }

    private static boolean causedByBindFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof BindException
                    || String.valueOf(t.getMessage()).contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }

    private static Properties brokerProperties(
            Path workDir, int port, int controllerPort, KafkaSecurity security) {
        Properties props = new Properties();
        props.put("process.roles", "broker,controller");
        props.put("node.id", String.valueOf(NODE_ID));
        props.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
        String listener = security.listenerName();
        props.put(
                "listeners",
                listener + "://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        props.put("advertised.listeners", listener + "://127.0.0.1:" + port);
        props.put("controller.listener.names", "CONTROLLER");
        props.putAll(security.brokerProperties());
        props.put("log.dirs", workDir.resolve("data").toString());
        props.put("num.partitions", "1");
        props.put("default.replication.factor", "1");
        props.put("min.insync.replicas", "1");
        props.put("auto.create.topics.enable", "false");
        props.put("offsets.topic.replication.factor", "1");
        props.put("offsets.topic.num.partitions", "5");
        props.put("transaction.state.log.replication.factor", "1");
        props.put("transaction.state.log.min.isr", "1");
        props.put("transaction.state.log.num.partitions", "5");
        props.put("transaction.max.timeout.ms", String.valueOf(MAX_TRANSACTION_TIMEOUT.toMillis()));
        props.put("group.initial.rebalance.delay.ms", "0");
        // Lean: the defaults size a production box (e.g. a 128 MB cleaner buffer).
        props.put("num.network.threads", "2");
        props.put("num.io.threads", "4");
        props.put("background.threads", "4");
        props.put("log.cleaner.threads", "1");
        props.put("log.cleaner.dedupe.buffer.size", String.valueOf(16 * 1024 * 1024));
        // Periodic controller tasks a single node does not need; at shutdown Kafka 3.4 logs their
        // cancellation as ERRORs ("writeNoOpRecord: unable to start processing ...").
        props.put("metadata.max.idle.interval.ms", "0");
        props.put("auto.leader.rebalance.enable", "false");
        return props;
    }

    /** What {@code kafka-storage.sh format} does: meta.properties plus the bootstrap checkpoint. */
    private static void formatStorage(KafkaConfig config, Path workDir) {
        MetaProperties meta = new MetaProperties(Uuid.randomUuid().toString(), NODE_ID);
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        int exitCode;
        try (PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            exitCode =
                    StorageTool.formatCommand(
                            out,
                            StorageTool.configToLogDirectories(config),
                            meta,
                            MetadataVersion.latest(),
                            false);
        }
        if (exitCode != 0) {
            throw new IllegalStateException(
                    "Formatting Kafka storage in "
                            + workDir
                            + " failed ("
                            + exitCode
                            + "): "
                            + output.toString(StandardCharsets.UTF_8));
        }
    }

    private void awaitReady() {
        Waits.until(
                "the Kafka broker " + bootstrapServers + " to be in the cluster metadata",
                READY_TIMEOUT,
                () ->
                        admin
                                .describeCluster()
                                .nodes()
                                .get(ADMIN_CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                                .stream()
                                .anyMatch(node -> node.id() == NODE_ID));
        createTopic(WARM_UP_TOPIC, 1);
        Waits.until(
                "a transactional produce/commit on " + bootstrapServers,
                READY_TIMEOUT,
                () -> {
                    commitOneTransaction();
                    return true;
                });
    }

    private void commitOneTransaction() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        security.addSuperUser(props);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, clientId("warm-up"));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) WARM_UP_ATTEMPT_TIMEOUT.toMillis());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(
                    new ProducerRecord<>(
                            WARM_UP_TOPIC, "warm-up".getBytes(StandardCharsets.UTF_8)));
            producer.commitTransaction();
        }
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    /** How clients reach this server. */
    public KafkaSecurity security() {
        return security;
    }

    /**
     * Creates {@code acls} as the super user; returns once the broker enforces them (its authorizer
     * lists them).
     */
    public void createAcls(Collection<AclBinding> acls) {
        try {
            admin.createAcls(acls).all().get(ADMIN_CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted creating ACLs " + acls, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot create ACLs " + acls, e);
        }
        Waits.until(
                "the broker to enforce ACLs " + acls,
                TOPIC_TIMEOUT,
                () ->
                        admin.describeAcls(AclBindingFilter.ANY)
                                .values()
                                .get(ADMIN_CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                                .containsAll(acls));
    }

    /** This start's folder; the log dir is {@code data/}. */
    public Path workDir() {
        return workDir;
    }

    /**
     * Bytes the broker's log holds for {@code topics}: record batches as stored, after the
     * producer's compression, with transaction markers.
     */
    public long storedBytes(Collection<String> topics) {
        try {
            Map<String, LogDirDescription> dirs =
                    admin.describeLogDirs(List.of(NODE_ID))
                            .descriptions()
                            .get(NODE_ID)
                            .get(ADMIN_CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            long bytes = 0;
            for (LogDirDescription dir : dirs.values()) {
                for (Map.Entry<TopicPartition, ReplicaInfo> replica :
                        dir.replicaInfos().entrySet()) {
                    if (topics.contains(replica.getKey().topic())) {
                        bytes += replica.getValue().size();
                    }
                }
            }
            return bytes;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted reading the log size of " + topics, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot read the log size of " + topics, e);
        }
    }

    /**
     * Creates {@code topic} with replication factor 1; returns once every partition has a leader.
     */
    public void createTopic(String topic, int partitions) {
        createTopic(topic, partitions, Map.of());
    }

    /** Like {@link #createTopic(String, int)}, with topic-level {@code configs}. */
    public void createTopic(String topic, int partitions, Map<String, String> configs) {
        try {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1).configs(configs)))
                    .all()
                    .get(TOPIC_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted creating topic " + topic, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(
                    "Cannot create topic " + topic + " with " + partitions + " partitions", e);
        }
        Waits.until(
                "a leader for all " + partitions + " partitions of topic " + topic,
                TOPIC_TIMEOUT,
                () -> {
                    TopicDescription description =
                            admin.describeTopics(List.of(topic))
                                    .allTopicNames()
                                    .get(ADMIN_CALL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                                    .get(topic);
                    return description.partitions().size() == partitions
                            && description.partitions().stream()
                                    .map(TopicPartitionInfo::leader)
                                    .allMatch(leader -> leader != null && leader.id() >= 0);
                });
    }

    @Override
    public List<byte[]> committedValues(String topic, int count, Duration timeout) {
        List<byte[]> values = new ArrayList<>();
        drainReadCommitted(topic, count, timeout).forEach(record -> values.add(record.value()));
        return values;
    }

    /**
     * Reads {@code topic} from the beginning of every partition with {@code
     * isolation.level=read_committed} (no consumer group) until {@code expectedCount} records
     * arrived or {@code timeout} passed, then keeps reading for a short grace period so that
     * duplicates beyond the expected count show. Returns the records partition by partition, each
     * in offset order; fewer than expected on timeout.
     */
    public List<ConsumerRecord<byte[], byte[]>> drainReadCommitted(
            String topic, int expectedCount, Duration timeout) {
        try (KafkaConsumer<byte[], byte[]> consumer = fromBeginning(topic, "read_committed")) {
            Map<Integer, List<ConsumerRecord<byte[], byte[]>>> byPartition = new TreeMap<>();
            long deadline = System.nanoTime() + timeout.toNanos();
            int count = 0;
            while (count < expectedCount && System.nanoTime() < deadline) {
                count += pollInto(consumer, byPartition);
            }
            if (count >= expectedCount) {
                long graceEnd = System.nanoTime() + DRAIN_GRACE.toNanos();
                while (System.nanoTime() < graceEnd) {
                    pollInto(consumer, byPartition);
                }
            }
            return inPartitionOffsetOrder(byPartition);
        }
    }

    /**
     * Reads {@code topic} like {@link #drainReadCommitted(String, int, Duration)} until nothing new
     * arrived for {@code quietPeriod} (at most 5 minutes in all).
     */
    public List<ConsumerRecord<byte[], byte[]>> drainReadCommitted(
            String topic, Duration quietPeriod) {
        try (KafkaConsumer<byte[], byte[]> consumer = fromBeginning(topic, "read_committed")) {
            Map<Integer, List<ConsumerRecord<byte[], byte[]>>> byPartition = new TreeMap<>();
            long limit = System.nanoTime() + DRAIN_ALL_LIMIT.toNanos();
            long quietUntil = System.nanoTime() + quietPeriod.toNanos();
            while (System.nanoTime() < quietUntil && System.nanoTime() < limit) {
                if (pollInto(consumer, byPartition) > 0) {
                    quietUntil = System.nanoTime() + quietPeriod.toNanos();
                }
            }
            return inPartitionOffsetOrder(byPartition);
        }
    }

    /**
     * How many records a reader with {@code isolation} ({@code read_committed}, or {@code
     * read_uncommitted} to count aborted records too) sees in {@code topic}, reading from the
     * beginning until a poll of {@code quiet} returns nothing.
     */
    public int count(String topic, String isolation, Duration quiet) {
        try (KafkaConsumer<byte[], byte[]> consumer = fromBeginning(topic, isolation)) {
            int count = 0;
            int batch;
            do {
                batch = consumer.poll(quiet).count();
                count += batch;
            } while (batch > 0);
            return count;
        }
    }

    private KafkaConsumer<byte[], byte[]> fromBeginning(String topic, String isolation) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        security.addSuperUser(props);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId("drain-" + topic));
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props);
        try {
            List<TopicPartition> partitions =
                    consumer.partitionsFor(topic, ADMIN_CALL_TIMEOUT).stream()
                            .map(info -> new TopicPartition(topic, info.partition()))
                            .collect(Collectors.toList());
            if (partitions.isEmpty()) {
                throw new IllegalArgumentException("Topic " + topic + " does not exist");
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            return consumer;
        } catch (RuntimeException e) {
            consumer.close();
            throw e;
        }
    }

    private static int pollInto(
            KafkaConsumer<byte[], byte[]> consumer,
            Map<Integer, List<ConsumerRecord<byte[], byte[]>>> byPartition) {
        int count = 0;
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
            byPartition.computeIfAbsent(record.partition(), p -> new ArrayList<>()).add(record);
            count++;
        }
        return count;
    }

    private static List<ConsumerRecord<byte[], byte[]>> inPartitionOffsetOrder(
            Map<Integer, List<ConsumerRecord<byte[], byte[]>>> byPartition) {
        List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
        for (List<ConsumerRecord<byte[], byte[]>> records : byPartition.values()) {
            records.sort(Comparator.comparingLong(ConsumerRecord::offset));
            all.addAll(records);
        }
        return all;
    }

    private static String clientId(String purpose) {
        return "sluice-it-" + purpose + "-" + CLIENT_SEQUENCE.incrementAndGet();
    }

    private Properties adminConfig() {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        security.addSuperUser(props);
        props.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId("admin"));
        return props;
    }

    /** Shuts the broker and controller down, waiting at most 30 s. Idempotent. */
    @Override
    public void close() {
        if (stopOnce()) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // The JVM is shutting down already; the hook is harmless.
            }
        }
    }

    /** Returns whether this call did the stopping. */
    private boolean stopOnce() {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        admin.close(ADMIN_CALL_TIMEOUT);
        shutDown(server, bootstrapServers);
        return true;
    }

    /** Shuts {@code server} down in a daemon thread, waiting at most {@link #SHUTDOWN_TIMEOUT}. */
    private static void shutDown(KafkaRaftServer server, String bootstrapServers) {
        long startNanos = System.nanoTime();
        Thread stopper =
                new Thread(
                        () -> {
                            server.shutdown();
                            server.awaitShutdown();
                        },
                        "kafka-" + bootstrapServers + "-stop");
        stopper.setDaemon(true);
        stopper.start();
        try {
            stopper.join(SHUTDOWN_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stopper.isAlive()) {
            LOG.warn(
                    "Kafka on {} did not shut down within {}; leaving its threads behind",
                    bootstrapServers,
                    SHUTDOWN_TIMEOUT);
        } else {
            LOG.info(
                    "Kafka on {} stopped in {} ms",
                    bootstrapServers,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
        }
    }

    @Override
    public String toString() {
        return "KafkaServer[" + bootstrapServers + ", " + workDir + "]";
    }
}
