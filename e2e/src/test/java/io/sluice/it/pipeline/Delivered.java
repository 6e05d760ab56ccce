package io.sluice.it.pipeline;

import io.sluice.functions.encode.MessageFormat;
import io.sluice.it.canal.CanalMessages;
import io.sluice.it.canal.CanalMessages.Row;
import io.sluice.it.server.KafkaServer;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One row as a read_committed consumer received it: where it was (topic, partition, offset), its
 * message key, and its content decoded by Canal's own classes.
 */
public final class Delivered {

    final String topic;
    public final int partition;
    final long offset;

    /** The message key as text, null for none. */
    final String key;

    public final Row row;

    private Delivered(String topic, int partition, long offset, String key, Row row) {
        this.topic = topic;
        this.partition = partition;
        this.offset = offset;
        this.key = key;
        this.row = row;
    }

    /** The value of {@code column} in the row's data image. */
    public String get(String column) {
        return row.data.get(column);
    }

    /**
     * Drains {@code topic} with read_committed until at least {@code expectedRows} rows arrived (or
     * {@code wait} passed; then fewer are returned), plus the server's grace period that shows
     * duplicates. Partition by partition, each in offset order.
     */
    public static List<Delivered> drain(
            KafkaServer kafka,
            String topic,
            MessageFormat format,
            int expectedRows,
            Duration wait) {
        // One message holds one or more rows: ask for messages, then check the row count.
        List<Delivered> rows = new ArrayList<>();
        long deadline = System.nanoTime() + wait.toNanos();
        int messages = expectedRows;
        while (true) {
            rows = decode(kafka.drainReadCommitted(topic, messages, wait), format);
            if (rows.size() >= expectedRows || System.nanoTime() > deadline) {
                return rows;
            }
            messages += expectedRows - rows.size();
        }
    }

    /** Decodes {@code records}, one entry per row, in the given order. */
    public static List<Delivered> decode(
            List<ConsumerRecord<byte[], byte[]>> records, MessageFormat format) {
        List<Delivered> rows = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            String key =
                    record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8);
            for (Row row : CanalMessages.decode(format, record.value())) {
                rows.add(
                        new Delivered(
                                record.topic(), record.partition(), record.offset(), key, row));
            }
        }
        return rows;
    }

    /**
     * Canal's partition for a row hashed on {@code values} ({@code partitionHash} with {@code $pk$}
     * or {@code col1^col2}), computed here from Canal's documented rule rather than Sluice's code:
     * the database name's hash XOR each value's {@code String.hashCode()} (null as ""), then {@code
     * abs(h % n)}.
     */
    public static int canalPartition(String database, int partitions, String... values) {
        int h = database.hashCode();
        for (String value : values) {
            h ^= (value == null ? "" : value).hashCode();
        }
        return Math.abs(h % partitions);
    }

    /** Canal's partition for a table hashed by its name (a rule without column spec). */
    public static int canalTablePartition(String table, int partitions) {
        return Math.abs(table.hashCode() % partitions);
    }

    @Override
    public String toString() {
        return topic + "/" + partition + "@" + offset + " key=" + key + " " + row;
    }
}
