package io.sluice.job.canal;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * {@code ./sluice caught-up --bootstrap-servers <hosts> --topic <t[,t]> [--property key=value
 * ...]}: reads every partition of the topics (committed messages, from the start to their end at
 * start), finds each partition's last progress marker, and prints the lowest: the checkpoint and
 * binlog position every partition has passed, so everything at or before it has arrived. It answers
 * "is the sink caught up to X?". Exit 0, 1 when some partition has no marker, 2 on bad arguments.
 */
public final class CaughtUp {

    static final String USAGE =
            "usage: ./sluice caught-up --topic <topic[,topic]> [--bootstrap-servers <host:port>]"
                    + " [--property key=value ...]\n"
                    + "  Prints each partition's last progress marker and the lowest of them: every"
                    + " change at or before\n"
                    + "  its binlog position has arrived in every partition"
                    + " (encode.progress-markers: checkpoint).";

    private CaughtUp() {}

    public static void main(String[] args) {
        System.exit(run(System.out, System.err, args));
    }

    /** Runs, reporting to {@code out}; the exit code. */
    public static int run(PrintStream out, PrintStream err, String... args) {
        String servers = "localhost:9092";
        List<String> topics = new ArrayList<>();
        Properties client = new Properties();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                err.println("caught-up: '" + flag + "' needs a value\n" + USAGE);
                return 2;
            }
            String value = args[++i];
            switch (flag) {
                case "--bootstrap-servers":
                    servers = value;
                    break;
                case "--topic":
                    topics.addAll(List.of(value.split(",")));
                    break;
                case "--property":
                    int eq = value.indexOf('=');
                    if (eq <= 0) {
                        err.println("caught-up: --property is key=value, but is '" + value + "'");
                        return 2;
                    }
                    client.put(value.substring(0, eq), value.substring(eq + 1));
                    break;
                default:
                    err.println("caught-up: unknown option '" + flag + "'\n" + USAGE);
                    return 2;
            }
        }
        if (topics.isEmpty()) {
            err.println("caught-up: --topic is required\n" + USAGE);
            return 2;
        }
        client.putIfAbsent(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        Map<String, JsonNode> last;
        try {
            last = lastMarkers(client, topics);
        } catch (IOException | RuntimeException e) {
            err.println("caught-up: " + e.getMessage());
            return 2;
        }
        JsonNode lowest = null;
        String lowestAt = null;
        boolean everyPartition = true;
        for (Map.Entry<String, JsonNode> partition : last.entrySet()) {
            JsonNode marker = partition.getValue();
            out.println(partition.getKey() + "  " + describe(marker));
            if (marker == null) {
                everyPartition = false;
            } else if (lowest == null
                    || marker.path("checkpointId").asLong()
                            < lowest.path("checkpointId").asLong()) {
                lowest = marker;
                lowestAt = partition.getKey();
            }
        }
        if (!everyPartition) {
            out.println("not every partition has a marker yet: nothing is known complete");
            return 1;
        }
        out.println("caught up to " + describe(lowest) + " (lowest, in " + lowestAt + ")");
        return 0;
    }

    /** Each partition ("topic/partition") and its last marker's fields, or null for none. */
    public static Map<String, JsonNode> lastMarkers(Properties client, List<String> topics)
            throws IOException {
        Properties props = new Properties();
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        props.putAll(client);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        Map<String, JsonNode> last = new TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(
                        props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
                if (infos == null || infos.isEmpty()) {
                    throw new IllegalArgumentException("topic '" + topic + "' does not exist");
                }
                for (PartitionInfo info : infos) {
                    partitions.add(new TopicPartition(topic, info.partition()));
                    last.put(topic + "/" + info.partition(), null);
                }
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            List<TopicPartition> open = new ArrayList<>(partitions);
            while (!open.isEmpty()) {
                for (ConsumerRecord<byte[], byte[]> record :
                        consumer.poll(Duration.ofMillis(500))) {
                    JsonNode marker = ProgressMarkerReader.marker(record.value());
                    if (marker != null) {
                        last.put(record.topic() + "/" + record.partition(), marker);
                    }
                }
                // Under read_committed the position passes aborted records and markers too.
                open.removeIf(p -> consumer.position(p) >= ends.get(p));
            }
        }
        return last;
    }

    private static String describe(JsonNode marker) {
        if (marker == null) {
            return "no marker";
        }
        return "checkpoint "
                + marker.path("checkpointId").asLong()
                + ": "
                + marker.path("binlogFile").asText()
                + ":"
                + marker.path("binlogPosition").asLong()
                + "#"
                + marker.path("rowInEvent").asLong()
                + (marker.path("gtid").asText().isEmpty()
                        ? ""
                        : " gtid " + marker.path("gtid").asText())
                + " (binlog time "
                + Instant.ofEpochMilli(marker.path("executeTime").asLong())
                + ")";
    }
}
