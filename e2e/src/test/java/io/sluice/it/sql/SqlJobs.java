package io.sluice.it.sql;

import org.apache.flink.core.execution.JobClient;

import com.alibaba.fastjson2.JSON;
import com.alibaba.otter.canal.protocol.FlatMessage;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.KafkaServer;
import io.sluice.job.SluiceSqlRunner;
import io.sluice.tools.demo.ShopDatabase;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs SQL scripts through the real runner against the test servers, and reads what they wrote. */
final class SqlJobs {

    /** Three tables of {@code ddl/shop.sql}, each seeded with {@link #ROWS} rows. */
    static final String[] TABLES = ShopDatabase.TABLES;

    static final int ROWS = 6;

    private SqlJobs() {}

    /** The {@code --define} values that point a script at the test servers. */
    static Map<String, String> defines(DatabaseServer mariaDb, KafkaServer kafka, String database) {
        Map<String, String> defines = defines(mariaDb, database);
        defines.put("KAFKA", kafka.bootstrapServers());
        return defines;
    }

    /** The {@code --define} values that point a script's source at the test database. */
    static Map<String, String> defines(DatabaseServer mariaDb, String database) {
        Map<String, String> defines = new HashMap<>();
        defines.put("SOURCE_HOST", mariaDb.host());
        defines.put("SOURCE_PORT", Integer.toString(mariaDb.port()));
        defines.put("SOURCE_USER", mariaDb.cdcUser());
        defines.put("SOURCE_PASSWORD", mariaDb.cdcPassword());
        defines.put("DATABASE", database);
        return defines;
    }

    /** The text of {@code sql/<name>} of the repository. */
    static String example(String name) throws IOException {
        Path file = Path.of(System.getProperty("user.dir")).resolveSibling("sql").resolve(name);
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    static JobClient start(String script, String name, Map<String, String> defines) {
        return SluiceSqlRunner.start(script, name, defines, Map.of());
    }

    /** Rows (orders with status 'paid' on even ids) of every table, version 0. */
    static void seed(DatabaseServer mariaDb, String database) {
        ShopDatabase.seed(mariaDb, database, ROWS);
    }

    static void updateAll(DatabaseServer mariaDb, String database, int version) {
        List<String> updates = new ArrayList<>();
        for (String table : TABLES) {
            for (int id = 0; id < ROWS; id++) {
                updates.add("UPDATE " + table + " SET version = " + version + " WHERE id = " + id);
            }
        }
        mariaDb.execute(database, updates.toArray(new String[0]));
    }

    /**
     * "table:id@version" of each flat message, checking on the way that each row stays in one
     * partition and its versions arrive in order.
     */
    static List<String> changesInOrder(List<ConsumerRecord<byte[], byte[]>> records) {
        List<String> seen = new ArrayList<>();
        Map<String, Integer> partitionOf = new HashMap<>();
        Map<String, Integer> lastVersion = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            FlatMessage message = JSON.parseObject(record.value(), FlatMessage.class);
            seen.add(
                    change(
                            message.getTable(),
                            message.getData().get(0),
                            partitionOf,
                            lastVersion,
                            record.partition()));
        }
        return seen;
    }

    static String change(
            String table,
            Map<String, String> row,
            Map<String, Integer> partitionOf,
            Map<String, Integer> lastVersion,
            int partition) {
        String key = table + ":" + row.get("id");
        int version = Integer.parseInt(row.get("version"));
        assertThat(partitionOf.putIfAbsent(key, partition))
                .as("row %s stays in one partition", key)
                .isIn(null, partition);
        Integer previous = lastVersion.put(key, version);
        assertThat(previous == null ? -1 : previous)
                .as("row %s changes arrive in binlog order", key)
                .isLessThan(version);
        return key + "@" + version;
    }

    /** "table:id@v" for {@code ids} of {@code table}, versions 0..{@code rounds}. */
    static List<String> expected(String table, Iterable<Integer> ids, int rounds) {
        List<String> want = new ArrayList<>();
        for (int id : ids) {
            for (int version = 0; version <= rounds; version++) {
                want.add(table + ":" + id + "@" + version);
            }
        }
        return want;
    }

    static List<Integer> allIds() {
        List<Integer> ids = new ArrayList<>();
        for (int id = 0; id < ROWS; id++) {
            ids.add(id);
        }
        return ids;
    }
}
