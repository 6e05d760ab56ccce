package io.sluice.it.sink;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.route.PartitionCounts;
import io.sluice.functions.sink.rocketmq.RocketMqSink;
import io.sluice.functions.sink.rocketmq.RocketMqSinkBuilder;
import io.sluice.functions.sink.rocketmq.RocketMqSinkFactory;
import io.sluice.functions.sink.rocketmq.internal.ClientSettings;
import io.sluice.functions.sink.rocketmq.internal.Position;
import io.sluice.functions.sink.rocketmq.internal.ProducerQueueSender;
import io.sluice.functions.sink.rocketmq.internal.QueueSender;
import io.sluice.functions.types.SinkMessageTypeInfo;
import io.sluice.it.flink.FlinkMiniCluster;
import io.sluice.it.server.RocketMqExtension;
import io.sluice.it.server.RocketMqServer;
import io.sluice.it.server.Waits;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The RocketMQ sink against a real name server and broker: numbered records per key, failures
 * injected before and after checkpoints, during a commit and during the replay of a restored
 * commit; then a drain of the topic must hold exactly the records, each key's in order, in the
 * key's queue.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RocketMqSinkITCase {

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final RocketMqExtension ROCKETMQ =
            RocketMqExtension.own(
                    "restarts the broker and refuses sends", RocketMqServer.Settings.DEFAULTS);

    @RegisterExtension
    static final MiniClusterExtension FLINK =
            FlinkMiniCluster.extension(4, METRICS.addToConfiguration(new Configuration()));

    private static final int KEYS = 24;
    private static final int QUEUES = 4;
    private static final int RECORDS = 2_400;
    private static final Duration QUIET = Duration.ofSeconds(2);

    /** Set once the mapper injected its failure; reset per test. */
    private static final AtomicBoolean MAPPER_FAILED = new AtomicBoolean();

    private static final AtomicInteger TOPICS = new AtomicInteger();

    /**
     * The send faults of the running test, by topic. The sink reaches the job's tasks as a copy
     * ({@link FaultySenders} is serialized with it), so its senders look their faults up here.
     */
    private static final Map<String, SendFaults> FAULTS = new ConcurrentHashMap<>();

    @BeforeEach
    void reset() {
        MAPPER_FAILED.set(false);
    }

    @AfterEach
    void removeFaults() {
        FAULTS.clear();
    }

    @Test
    void exactlyOnceAcrossAFailureBetweenCheckpoints() throws Exception {
        String topic = newTopic("eo-fail");
        run(topic, DeliveryGuarantee.EXACTLY_ONCE, 512, true);

        assertThat(MAPPER_FAILED).as("the mapper failed the job once").isTrue();
        assertExactlyOnceInOrder(topic);
    }

    @Test
    void exactlyOnceAcrossFailuresDuringCommitAndDuringReplay() throws Exception {
        String topic = newTopic("eo-commit");
        CommitThenReplayFaults faults = new CommitThenReplayFaults();
        FAULTS.put(topic, faults);
        // Small batches, so a commit is several sends and can break between two of them.
        RocketMqSink sink =
                builder(topic, DeliveryGuarantee.EXACTLY_ONCE, 4)
                        .setSenderFactory(new FaultySenders(topic))
                        .build();
        sinkTo(numbers(environment(), topic, false, 1), sink).execute(topic);

        assertThat(faults.commitFailed).as("a commit failed half-way").isTrue();
        assertThat(faults.replayFailed).as("the replay of that commit failed half-way").isTrue();
        // The last replay found what the failed attempts had sent, and skipped it.
        assertThat(sum(topic, ".sluice.numRecordsAlreadySent")).isPositive();
        assertExactlyOnceInOrder(topic);
    }

    @Test
    void exactlyOnceAcrossABrokerRestart() throws Exception {
        String topic = newTopic("eo-restart");
        StreamExecutionEnvironment env = environment();
        // The broker is away for seconds: keep restarting until it is back.
        Configuration restarts = new Configuration();
        restarts.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 1_000);
        restarts.set(
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(500));
        env.configure(restarts);
        JobClient job =
                sinkTo(
                                numbers(env, topic, false, 4),
                                sink(topic, DeliveryGuarantee.EXACTLY_ONCE, 16))
                        .executeAsync(topic);
        // Some checkpoints committed, most records still to come.
        Waits.until(
                "the sink to send " + RECORDS / 8 + " records",
                Duration.ofMinutes(2),
                () -> sum(topic, ".sluice.numRecordsSend") >= RECORDS / 8);
        ROCKETMQ.server().restartBroker();
        job.getJobExecutionResult().get(5, TimeUnit.MINUTES);

        assertThat(sum(topic, ".sluice.numRecordsSendErrors"))
                .as("commits failed while the broker was away")
                .isPositive();
        assertExactlyOnceInOrder(topic);
    }

    @Test
    void atLeastOnceLosesNothingAcrossAFailure() throws Exception {
        String topic = newTopic("alo");
        run(topic, DeliveryGuarantee.AT_LEAST_ONCE, 16, true);

        assertThat(MAPPER_FAILED).isTrue();
        List<String> drained = bodies(ROCKETMQ.server().drainAll(topic, QUIET));
        assertThat(drained).containsAll(expected());
        assertThat(sumWriter(topic, ".numRecordsSend")).isPositive();
        assertThat(sumWriter(topic, ".numRecordsOutErrors")).isZero();
    }

    /**
     * A cancelled sink task is interrupted mid-send; the client reports that wrapped in its own
     * exceptions, and the sender hands it on as an interrupt, so the writer does not count the
     * cancellation as a send error.
     */
    @Test
    void anInterruptedSendIsACancellationNotASendError() throws Exception {
        String topic = newTopic("interrupt");
        ClientSettings settings =
                new ClientSettings(
                        ROCKETMQ.server().nameServerAddress(),
                        topic,
                        Duration.ofSeconds(10),
                        16,
                        1 << 20);
        try (QueueSender sender = new ProducerQueueSender(settings, "interrupt-test")) {
            MessageQueue queue = sender.queue(topic, 0);
            // A sending task knows the broker's address; without it the client's route lookup
            // would swallow the interrupt.
            sender.send(queue, List.of(message(topic, "first")), (stored, bytes, count) -> {});
            List<Message> cancelled = List.of(message(topic, "cancelled"));
            Thread.currentThread().interrupt();
            try {
                assertThatThrownBy(
                                () -> sender.send(queue, cancelled, (stored, bytes, count) -> {}))
                        .isInstanceOf(InterruptedException.class)
                        .hasMessageContaining("was interrupted");
            } finally {
                Thread.interrupted();
            }
            // No send after it here: the client closes its connection on the failed request, and
            // the next send can race that close. A cancelled task sends nothing more.
        }
        assertThat(bodies(ROCKETMQ.server().drainAll(topic, QUIET))).containsExactly("first");
    }

    private static Message message(String topic, String body) {
        return new Message(topic, "t", bytes(body));
    }

    @Test
    void statementsReachEveryQueueInOrderAndMetricsCount() throws Exception {
        String topic = newTopic("ddl");
        List<SinkMessage> messages = new ArrayList<>();
        Map<Integer, List<String>> perQueue = new HashMap<>();
        for (int step = 0; step < 3; step++) {
            for (int key = 0; key < KEYS; key++) {
                String body = key + ":" + step;
                messages.add(message(topic, key, step));
                perQueue.computeIfAbsent(key % QUEUES, q -> new ArrayList<>()).add(body);
            }
            // A statement after each step, one copy on every queue (as the partition owner
            // stage delivers it), with no key.
            for (int queue = 0; queue < QUEUES; queue++) {
                String ddl = "ALTER TABLE t ADD c" + step;
                messages.add(new SinkMessage(topic, queue, null, bytes(ddl), 0, "t"));
                perQueue.get(queue).add(ddl);
            }
        }
        StreamExecutionEnvironment env = environment();
        DataStream<SinkMessage> stream =
                env.fromData(messages, new SinkMessageTypeInfo()).name("statements").uid("data");
        sinkTo(stream, sink(topic, DeliveryGuarantee.EXACTLY_ONCE, 512)).execute(topic);

        List<MessageExt> drained = ROCKETMQ.server().drainAll(topic, QUIET);
        Map<Integer, List<String>> drainedPerQueue = new HashMap<>();
        for (MessageExt message : drained) {
            drainedPerQueue
                    .computeIfAbsent(message.getQueueId(), q -> new ArrayList<>())
                    .add(new String(message.getBody(), StandardCharsets.UTF_8));
        }
        assertThat(drainedPerQueue).isEqualTo(perQueue);
        assertThat(drained)
                .filteredOn(m -> m.getKeys() == null)
                .hasSize(3 * QUEUES)
                .allSatisfy(m -> assertThat(m.getTags()).isEqualTo("t"));

        assertThat(sumWriter(topic, ".numRecordsOut")).isEqualTo(messages.size());
        assertThat(sum(topic, ".sluice.numRecordsSend")).isEqualTo(messages.size());
        assertThat(sum(topic, ".sluice.numRecordsAlreadySent")).isZero();
        assertThat(sum(topic, ".sluice.numRecordsSendErrors")).isZero();
        assertThat(sumWriter(topic, ".numRecordsOutErrors")).isZero();
    }

    @Test
    void anUnknownTopicIsAClearError() {
        Configuration config = new Configuration();
        config.setString("sink.rocketmq.name-server", ROCKETMQ.server().nameServerAddress());
        config.setString("sink.rocketmq.producer-group", "bad-config");
        try (PartitionCounts counts = RocketMqSinkFactory.partitionCounts(config).create()) {
            assertThatThrownBy(() -> counts.countOf("no-such-topic"))
                    .hasMessageContaining("Topic 'no-such-topic' has no writable queues")
                    .hasMessageContaining(ROCKETMQ.server().nameServerAddress());
        }
        String topic = newTopic("counts");
        try (PartitionCounts counts = RocketMqSinkFactory.partitionCounts(config).create()) {
            assertThat(counts.countOf(topic)).isEqualTo(QUEUES);
        }
        config.setString("route.partition-counts", topic + ":3");
        try (PartitionCounts counts = RocketMqSinkFactory.partitionCounts(config).create()) {
            assertThat(counts.countOf(topic)).isEqualTo(3);
        }
    }

    // ---------------------------------------------------------------------------------------

    private static String newTopic(String prefix) {
        String topic = "rmq-" + prefix + "-" + TOPICS.incrementAndGet();
        ROCKETMQ.server().createTopic(topic, QUEUES);
        return topic;
    }

    /**
     * Numbered records, throttled so several checkpoints pass, into the sink; waits for the end.
     */
    private static JobExecutionResult run(
            String topic, DeliveryGuarantee guarantee, int batchMax, boolean failInMapper)
            throws Exception {
        StreamExecutionEnvironment env = environment();
        return sinkTo(numbers(env, topic, failInMapper, 1), sink(topic, guarantee, batchMax))
                .execute(topic);
    }

    private static DataStream<SinkMessage> numbers(
            StreamExecutionEnvironment env, String topic, boolean failInMapper, int millisEach) {
        return env.fromSequence(0, RECORDS - 1)
                .uid("numbers")
                .name("numbers")
                .map(new FailOnceAfterCheckpoint(failInMapper, millisEach))
                .uid("fail-once")
                .name("fail once")
                .map(new ToMessage(topic))
                .returns(new SinkMessageTypeInfo())
                .uid("to-message")
                .name("to message");
    }

    private static StreamExecutionEnvironment environment() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        Configuration pipeline = new Configuration();
        pipeline.set(PipelineOptions.GENERIC_TYPES, false);
        env.configure(pipeline);
        env.enableCheckpointing(200);
        env.setParallelism(1);
        return env;
    }

    /** Each queue to one sink subtask, as Sluice's partition-owner stage does. */
    private static StreamExecutionEnvironment sinkTo(
            DataStream<SinkMessage> messages, RocketMqSink sink) {
        messages.partitionCustom(new ByQueue(), new QueueOf())
                .sinkTo(sink)
                .setParallelism(2)
                .uid("rocketmq-sink")
                .name("RocketMQ sink");
        return messages.getExecutionEnvironment();
    }

    private static RocketMqSink sink(String topic, DeliveryGuarantee guarantee, int batchMax) {
        return builder(topic, guarantee, batchMax).build();
    }

    private static RocketMqSinkBuilder builder(
            String topic, DeliveryGuarantee guarantee, int batchMax) {
        return RocketMqSink.builder()
                .setNameServer(ROCKETMQ.server().nameServerAddress())
                .setProducerGroup(topic)
                .setDeliveryGuarantee(guarantee)
                .setBatchMaxMessages(batchMax);
    }

    private static void assertExactlyOnceInOrder(String topic) {
        List<MessageExt> drained = ROCKETMQ.server().drainAll(topic, QUIET);
        assertThat(bodies(drained)).containsExactlyInAnyOrderElementsOf(expected());
        Map<Integer, Integer> nextSeq = new HashMap<>();
        for (MessageExt message : drained) {
            String[] parts = new String(message.getBody(), StandardCharsets.UTF_8).split(":");
            int key = Integer.parseInt(parts[0]);
            int seq = Integer.parseInt(parts[1]);
            assertThat(message.getQueueId()).as("queue of key %s", key).isEqualTo(key % QUEUES);
            assertThat(message.getKeys()).isEqualTo(keyText(key));
            assertThat(message.getTags()).isEqualTo("table" + key % 3);
            assertThat(seq)
                    .as("next change of key %s", key)
                    .isEqualTo(nextSeq.getOrDefault(key, 0));
            nextSeq.put(key, seq + 1);
        }
    }

    private static List<String> expected() {
        List<String> expected = new ArrayList<>(RECORDS);
        for (long value = 0; value < RECORDS; value++) {
            expected.add(value % KEYS + ":" + value / KEYS);
        }
        return expected;
    }

    private static List<String> bodies(List<MessageExt> messages) {
        List<String> bodies = new ArrayList<>(messages.size());
        messages.forEach(m -> bodies.add(new String(m.getBody(), StandardCharsets.UTF_8)));
        return bodies;
    }

    private static SinkMessage message(String topic, int key, long seq) {
        return new SinkMessage(
                topic,
                key % QUEUES,
                bytes(keyText(key)),
                bytes(key + ":" + seq),
                0,
                "table" + key % 3);
    }

    private static String keyText(int key) {
        return "[\"db\",\"t\"," + key + "]";
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Sum of the counters of job {@code name} (every attempt: metrics are retained) whose
     * identifier ends with {@code suffix}.
     */
    private static long sum(String name, String suffix) {
        return sumWhere(name, suffix, "");
    }

    private static long sumWriter(String name, String suffix) {
        return sumWhere(name, suffix, "Writer");
    }

    private static long sumWhere(String name, String suffix, String operator) {
        long total = 0;
        for (Map.Entry<MetricGroup, Map<String, Metric>> group :
                METRICS.getMetricsByGroup().entrySet()) {
            for (Map.Entry<String, Metric> metric : group.getValue().entrySet()) {
                String id = group.getKey().getMetricIdentifier(metric.getKey());
                if (id.contains("." + name + ".")
                        && id.endsWith(suffix)
                        && id.contains(operator)
                        && metric.getValue() instanceof Counter) {
                    total += ((Counter) metric.getValue()).getCount();
                }
            }
        }
        return total;
    }

    /** Passes numbers on, slowly; once per test fails after a checkpoint completed. */
    private static final class FailOnceAfterCheckpoint
            implements MapFunction<Long, Long>, CheckpointListener {
        private final boolean fail;
        private final int millisEach;
        private boolean checkpointed;

        FailOnceAfterCheckpoint(boolean fail, int millisEach) {
            this.fail = fail;
            this.millisEach = millisEach;
        }

        @Override
        public Long map(Long value) throws Exception {
            Thread.sleep(millisEach);
            if (fail
                    && checkpointed
                    && value >= RECORDS / 2
                    && MAPPER_FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure after a checkpoint");
            }
            return value;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            checkpointed = true;
        }
    }

    /** Decides, after each batch a sender stored, whether the send fails there. */
    private interface SendFaults {
        /**
         * @param messages all the send was asked to store, in order
         * @param storedSoFar how many of them the broker stored so far
         */
        void afterStored(List<Message> messages, int storedSoFar) throws IOException;
    }

    /** Opens the real sender, wrapped to consult the test's {@link SendFaults} after each batch. */
    private record FaultySenders(String topic) implements QueueSender.Factory {
        @Override
        public QueueSender open(ClientSettings settings, String role) throws IOException {
            QueueSender real = new ProducerQueueSender(settings, role);
            SendFaults faults = FAULTS.get(topic);
            return new QueueSender() {
                @Override
                public List<MessageQueue> queuesOf(String topic) throws IOException {
                    return real.queuesOf(topic);
                }

                @Override
                public void send(MessageQueue queue, List<Message> messages, Progress stored)
                        throws IOException, InterruptedException {
                    real.send(
                            queue,
                            messages,
                            (storedSoFar, bytes, count) -> {
                                stored.stored(storedSoFar, bytes, count);
                                faults.afterStored(messages, storedSoFar);
                            });
                }

                @Override
                public void close() {
                    real.close();
                }
            };
        }
    }

    /**
     * Fails a commit once after 40 stored batches, where part of its queue's batch is still to come
     * (so the replay has to send it); then fails the replay of that commit, which the writer run it
     * belongs to tells apart (a restarted writer starts a new run), after its first stored batch.
     */
    private static final class CommitThenReplayFaults implements SendFaults {
        final AtomicInteger storedBatches = new AtomicInteger();
        final AtomicBoolean commitFailed = new AtomicBoolean();
        final AtomicBoolean replayFailed = new AtomicBoolean();
        volatile Position failedCommit;

        @Override
        public void afterStored(List<Message> messages, int storedSoFar) throws IOException {
            Position first = Position.parse(messages.get(0).getUserProperty(Position.PROPERTY));
            Position failed = failedCommit;
            if (first == null) {
                return; // Not a commit: only the committer stamps positions.
            }
            if (failed == null) {
                if (storedBatches.incrementAndGet() > 40
                        && storedSoFar < messages.size()
                        && commitFailed.compareAndSet(false, true)) {
                    failedCommit = first;
                    throw new IOException("injected failure in the middle of a commit");
                }
            } else if (first.run() == failed.run() && replayFailed.compareAndSet(false, true)) {
                throw new IOException("injected failure while replaying a commit");
            }
        }
    }

    /** Number {@code v}: key {@code v % KEYS}, that key's {@code v / KEYS}-th change. */
    private static final class ToMessage implements MapFunction<Long, SinkMessage> {
        private final String topic;

        ToMessage(String topic) {
            this.topic = topic;
        }

        @Override
        public SinkMessage map(Long value) {
            return message(topic, (int) (value % KEYS), value / KEYS);
        }
    }

    private static final class QueueOf implements KeySelector<SinkMessage, Integer> {
        @Override
        public Integer getKey(SinkMessage message) {
            return message.partition();
        }
    }

    private static final class ByQueue implements Partitioner<Integer> {
        @Override
        public int partition(Integer queue, int channels) {
            return queue % channels;
        }
    }
}
