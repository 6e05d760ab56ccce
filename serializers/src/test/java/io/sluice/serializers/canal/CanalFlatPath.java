package io.sluice.serializers.canal;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONWriter;
import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.connector.core.producer.MQMessageUtils;
import com.alibaba.otter.canal.connector.core.producer.MQMessageUtils.EntryRowData;
import com.alibaba.otter.canal.protocol.FlatMessage;
import com.alibaba.otter.canal.protocol.Message;

import java.util.List;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Canal's own flat path, run with Canal's classes for tests and benchmarks to judge {@link
 * CanalFlatEncoder} by. With {@code canal.mq.flatMessage=true}, {@code CanalKafkaProducer.send}
 * (and the RocketMQ producer alike) takes a {@link Message}, parses each entry's RowChange with
 * {@code MQMessageUtils.buildMessageData}, converts them with {@code
 * MQMessageUtils.messageConverter(datas, message.getId())} into one {@link FlatMessage} per entry,
 * and writes each with {@code JSON.toJSONBytes(flat, WriteNulls, LargeObject)} (fastjson2).
 *
 * <p>{@code messageConverter} sets {@code ts} from the clock; callers that compare with Sluice
 * replace it with the build time they gave Sluice.
 */
public final class CanalFlatPath {

    /**
     * Runs buildMessageData's parse tasks on the calling thread, as Canal's build pool does under
     * its CallerRunsPolicy when busy: no threads to start or leak in tests.
     */
    private static final ThreadPoolExecutor CALLER_RUNS =
            new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new SynchronousQueue<>()) {
                @Override
                public void execute(Runnable command) {
                    command.run();
                }
            };

    private CanalFlatPath() {}

    /**
     * The FlatMessage Canal builds from a binary packet: the packet read back by Canal's consumer
     * ({@code CanalMessageDeserializer}), then converted by Canal. The packet must hold one entry.
     */
    public static FlatMessage fromPacket(byte[] packet) {
        List<FlatMessage> flats = convert(CanalMessageDeserializer.deserializer(packet));
        if (flats.size() != 1) {
            throw new IllegalStateException(
                    "Canal converted the packet into " + flats.size() + " flat messages, not 1");
        }
        return flats.get(0);
    }

    /** {@code messageConverter(buildMessageData(message), message.getId())}. */
    public static List<FlatMessage> convert(Message message) {
        return MQMessageUtils.messageConverter(entryRowData(message), message.getId());
    }

    /** Canal's parsed input of {@code messageConverter}: each entry with its RowChange. */
    public static EntryRowData[] entryRowData(Message message) {
        return MQMessageUtils.buildMessageData(message, CALLER_RUNS);
    }

    /** As {@code CanalKafkaProducer} and {@code CanalRocketMQProducer} serialize a flat message. */
    public static byte[] toJsonBytes(FlatMessage flat) {
        return JSON.toJSONBytes(
                flat, JSONWriter.Feature.WriteNulls, JSONWriter.Feature.LargeObject);
    }
}
