package io.sluice.it.server;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.LocalTransactionState;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.client.producer.SendStatus;
import org.apache.rocketmq.client.producer.TransactionListener;
import org.apache.rocketmq.client.producer.TransactionMQProducer;
import org.apache.rocketmq.client.producer.TransactionSendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Proves the embedded RocketMQ really stores, routes and reads messages, plain and in 2PC. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RocketMqServerITCase {

    @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();

    private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(60);
    private static final int QUEUES = 4;

    /** What was sent or read: enough to compare multisets and per-queue order. */
    record Record(int queueId, String key, String body) {
        static Record of(MessageExt message) {
            return new Record(
                    message.getQueueId(),
                    message.getKeys(),
                    new String(message.getBody(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void keyedMessagesComeBackCompleteAndInPerQueueOrder() throws Exception {
        RocketMqServer server = ROCKETMQ.server();
        String topic = "sluice-it-keyed-" + UUID.randomUUID();
        server.createTopic(topic, QUEUES);

        MessageQueueSelector byKeyHash =
                (queues, message, key) -> queues.get(Math.floorMod(key.hashCode(), queues.size()));
        List<Record> sent = new ArrayList<>();
        DefaultMQProducer producer = new DefaultMQProducer("sluice-it-keyed-producer");
        configure(producer, server);
        producer.start();
        try {
            for (int i = 0; i < 100; i++) {
                String key = "row-" + (i % 20);
                String body = "change-" + i;
                Message message = new Message(topic, body.getBytes(StandardCharsets.UTF_8));
                message.setKeys(key);
                SendResult result = producer.send(message, byKeyHash, key);
                assertThat(result.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
                sent.add(new Record(result.getMessageQueue().getQueueId(), key, body));
            }
        } finally {
            producer.shutdown();
        }

        // The producer saw all 4 queues, so the selector's choice is the queue id.
        assertThat(sent)
                .allSatisfy(
                        record ->
                                assertThat(record.queueId())
                                        .isEqualTo(Math.floorMod(record.key().hashCode(), QUEUES)));
        assertThat(sent.stream().map(Record::queueId).distinct()).hasSize(QUEUES);

        List<Record> drained =
                server.drain(topic, sent.size(), DRAIN_TIMEOUT).stream()
                        .map(Record::of)
                        .collect(Collectors.toList());

        assertThat(drained).containsExactlyInAnyOrderElementsOf(sent);
        // drain() returns queue by queue in offset order; a stable sort of the sends by queue
        // keeps the send order within each queue.
        List<Record> sentPerQueue =
                sent.stream()
                        .sorted(Comparator.comparingInt(Record::queueId))
                        .collect(Collectors.toList());
        assertThat(drained).containsExactlyElementsOf(sentPerQueue);
        assertThat(server.drainAll(topic, Duration.ofSeconds(1)).stream().map(Record::of))
                .containsExactlyElementsOf(sentPerQueue);
    }

    @Test
    void onlyCommittedTransactionalMessagesAreVisible() throws Exception {
        RocketMqServer server = ROCKETMQ.server();
        String topic = "sluice-it-transactional-" + UUID.randomUUID();
        server.createTopic(topic, 2);

        TransactionMQProducer producer = new TransactionMQProducer("sluice-it-tx-producer");
        configure(producer, server);
        producer.setTransactionListener(new DecidedByArgument());
        producer.start();
        try {
            // The rolled-back one goes first: had it leaked, it would sit before the commit.
            TransactionSendResult rolledBack =
                    producer.sendMessageInTransaction(
                            message(topic, "tx-rollback", "rolled back"),
                            LocalTransactionState.ROLLBACK_MESSAGE);
            TransactionSendResult committed =
                    producer.sendMessageInTransaction(
                            message(topic, "tx-commit", "committed"),
                            LocalTransactionState.COMMIT_MESSAGE);
            assertThat(rolledBack.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            assertThat(rolledBack.getLocalTransactionState())
                    .isEqualTo(LocalTransactionState.ROLLBACK_MESSAGE);
            assertThat(committed.getSendStatus()).isEqualTo(SendStatus.SEND_OK);
            assertThat(committed.getLocalTransactionState())
                    .isEqualTo(LocalTransactionState.COMMIT_MESSAGE);
        } finally {
            producer.shutdown();
        }

        List<MessageExt> drained = server.drain(topic, 1, DRAIN_TIMEOUT);

        assertThat(drained)
                .extracting(
                        MessageExt::getKeys, m -> new String(m.getBody(), StandardCharsets.UTF_8))
                .containsExactly(tuple("tx-commit", "committed"));
    }

    private static void configure(DefaultMQProducer producer, RocketMqServer server) {
        producer.setNamesrvAddr(server.nameServerAddress());
        producer.setInstanceName(producer.getProducerGroup() + "-" + System.nanoTime());
        producer.setVipChannelEnabled(false);
        producer.setSendMsgTimeout(10_000);
    }

    private static Message message(String topic, String key, String body) {
        Message message = new Message(topic, body.getBytes(StandardCharsets.UTF_8));
        message.setKeys(key);
        return message;
    }

    /** Commits or rolls back as the send call asked; answers broker checks by message key. */
    private static final class DecidedByArgument implements TransactionListener {
        @Override
        public LocalTransactionState executeLocalTransaction(Message message, Object decision) {
            return (LocalTransactionState) decision;
        }

        @Override
        public LocalTransactionState checkLocalTransaction(MessageExt message) {
            return "tx-commit".equals(message.getKeys())
                    ? LocalTransactionState.COMMIT_MESSAGE
                    : LocalTransactionState.ROLLBACK_MESSAGE;
        }
    }
}
