package io.sluice.job.canal;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;

import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.encode.EncodeOptions;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.filter.ChangeKind;
import io.sluice.functions.filter.FilterOptions;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.PartitionRules.Unmatched;
import io.sluice.functions.route.RouteOptions;
import io.sluice.functions.sink.KafkaSinkOptions;
import io.sluice.functions.sink.SinkOptions;
import io.sluice.functions.sink.SinkType;
import io.sluice.functions.sink.rocketmq.RocketMqSinkOptions;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.StartupMode;
import io.sluice.job.config.JobConfigLoader;
import io.sluice.job.config.JobOptions;
import io.sluice.job.config.internal.RenamedKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./sluice import-canal} on Canal 1.1.x property files, as a Canal MQ deployment has them.
 */
class ImportCanalTest {

    /** An import writes no key the loader reads only as a deprecated name. */
    @RegisterExtension
    final LoggerAuditingExtension renamedKeysLog =
            new LoggerAuditingExtension(RenamedKeys.class, Level.WARN);

    private static final Map<String, String> ENV =
            Map.of(
                    "SLUICE_SOURCE_PASSWORD", "from-env",
                    "SLUICE_KAFKA_SASL_JAAS_CONFIG", "jaas-from-env");

    @TempDir Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void kafkaInstanceBecomesAConfigurationTheJobLoads() throws IOException {
        Path yaml = dir.resolve("sluice.yaml");
        assertThat(
                        run(
                                resource("kafka/canal.properties"),
                                resource("kafka/instance.properties"),
                                "--output",
                                yaml.toString()))
                .as(err())
                .isZero();

        String text = Files.readString(yaml);
        assertThat(text).doesNotContain("Canal-Pa55word").doesNotContain("alice-secret");
        assertThat(text).contains("\nencode:\n  # From canal.mq.flatMessage=true.\n  format:");
        assertThat(renamedKeysLog.getMessages()).isEmpty();
        assertThat(text)
                .contains("# From canal.instance.filter.regex")
                .contains("# From canal.mq.dynamicTopic (same syntax).")
                .contains("canal.instance.dbPassword is not copied");

        Configuration config = JobConfigLoader.fromArgs(ENV, "--config", yaml.toString());
        assertThat(JobOptions.job(config).get(JobOptions.NAME)).isEqualTo("sluice-shop");
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.HOSTNAME))
                .isEqualTo("db-primary.internal");
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.PORT))
                .isEqualTo(3307);
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.USERNAME))
                .isEqualTo("canal");
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.PASSWORD))
                .isEqualTo("from-env");
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.TABLES))
                .containsExactly("shop\\..*", "crm\\.customers");
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.TABLES_EXCLUDE))
                .containsExactly("shop\\.tmp_.*", "mysql\\.slave_.*");
        assertThat(PipelineSections.of(config).source().getOptional(MySqlSourceOptions.SERVER_ID))
                .as("Canal's slaveId is not carried over; the job draws ids of its own")
                .isEmpty();
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.STARTUP_MODE))
                .isEqualTo(StartupMode.BINLOG_POSITION);
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.STARTUP_BINLOG_FILE))
                .isEqualTo("mysql-bin.000042");
        assertThat(
                        PipelineSections.of(config)
                                .source()
                                .get(MySqlSourceOptions.STARTUP_BINLOG_POSITION))
                .isEqualTo(1571L);
        assertThat(
                        PipelineSections.of(config)
                                .source()
                                .get(MySqlSourceOptions.INCLUDE_SCHEMA_CHANGES))
                .isTrue();
        assertThat(PipelineSections.of(config).encode().get(EncodeOptions.FORMAT))
                .isEqualTo(MessageFormat.CANAL_FLAT);
        assertThat(PipelineSections.of(config).sink().get(SinkOptions.TYPE))
                .isEqualTo(SinkType.KAFKA);
        assertThat(PipelineSections.of(config).kafka().get(KafkaSinkOptions.BOOTSTRAP_SERVERS))
                .isEqualTo("kafka-1:9092,kafka-2:9092");
        assertThat(
                        PipelineSections.of(config)
                                .kafka()
                                .get(KafkaSinkOptions.TRANSACTIONAL_ID_PREFIX))
                .isEqualTo("sluice-shop");
        assertThat(PipelineSections.of(config).route().get(RouteOptions.DEFAULT_TOPIC))
                .isEqualTo("shop_default");
        assertThat(PipelineSections.of(config).route().get(RouteOptions.DYNAMIC_TOPIC))
                .isEqualTo("orders:shop\\.order_.*,crm");
        assertThat(PipelineSections.of(config).route().get(PartitionOptions.PARTITION_HASH))
                .isEqualTo("shop\\.order_.*:$pk$,crm.customers:id^region");
        assertThat(PipelineSections.of(config).route().get(PartitionOptions.PARTITION_COUNTS))
                .isEqualTo("orders:6,.*:3");
        assertThat(PipelineSections.of(config).route().get(PartitionOptions.UNMATCHED))
                .isEqualTo(Unmatched.PRIMARY_KEY);
        assertThat(PipelineSections.of(config).route().get(PartitionOptions.DATABASE_HASH))
                .isTrue();

        // Canal's routing, read by Sluice's router and partition counts.
        assertThat(
                        RouteOptions.router(PipelineSections.of(config).route())
                                .topicOf("shop", "order_items"))
                .isEqualTo("orders");
        assertThat(
                        RouteOptions.router(PipelineSections.of(config).route())
                                .topicOf("crm", "customers"))
                .isEqualTo("crm");
        assertThat(
                        RouteOptions.router(PipelineSections.of(config).route())
                                .topicOf("shop", "users"))
                .isEqualTo("shop_default");
        assertThat(PartitionOptions.counts(PipelineSections.of(config).route()).countOf("orders"))
                .isEqualTo(6);
        assertThat(PartitionOptions.counts(PipelineSections.of(config).route()).countOf("crm"))
                .isEqualTo(3);

        // Producer keys: changed tuning and security pass through; Sluice owns acks and retries;
        // Canal's shipped tuning is left to Sluice's defaults; the JAAS secret stays a reference.
        Map<String, String> all = config.toMap();
        assertThat(all)
                .containsEntry("sink.kafka.properties.linger.ms", "20")
                .containsEntry("sink.kafka.properties.max.request.size", "4194304")
                .containsEntry("sink.kafka.properties.sasl.mechanism", "SCRAM-SHA-512")
                .containsEntry("sink.kafka.properties.security.protocol", "SASL_PLAINTEXT")
                .containsEntry("sink.kafka.properties.sasl.jaas.config", "jaas-from-env")
                .doesNotContainKeys(
                        "sink.kafka.properties.bootstrap.servers",
                        "sink.kafka.properties.acks",
                        "sink.kafka.properties.retries",
                        "sink.kafka.properties.batch.size",
                        "sink.kafka.properties.compression.type");
    }

    @Test
    void rocketMqInstanceWithGtid() throws IOException {
        assertThat(
                        run(
                                resource("rocketmq/canal.properties"),
                                resource("rocketmq/instance.properties")))
                .as(err())
                .isZero();
        Path yaml = dir.resolve("sluice.yaml");
        Files.writeString(yaml, out.toString(StandardCharsets.UTF_8));

        Configuration config = JobConfigLoader.fromArgs(ENV, "--config", yaml.toString());
        assertThat(PipelineSections.of(config).sink().get(SinkOptions.TYPE))
                .isEqualTo(SinkType.ROCKETMQ);
        assertThat(PipelineSections.of(config).encode().get(EncodeOptions.FORMAT))
                .isEqualTo(MessageFormat.CANAL_BINARY);
        assertThat(PipelineSections.of(config).rocketMq().get(RocketMqSinkOptions.NAME_SERVER))
                .isEqualTo("127.0.0.1:9876");
        assertThat(PipelineSections.of(config).rocketMq().get(RocketMqSinkOptions.PRODUCER_GROUP))
                .isEqualTo("canal-example-sluice");
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.STARTUP_MODE))
                .isEqualTo(StartupMode.GTID);
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.STARTUP_GTID_SET))
                .isEqualTo("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-23");
        // Canal's '.*\..*': the same tables, written so that the first '.' ends the database.
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.TABLES))
                .containsExactly("[^\\x2E]*\\..*");
        // No partitionHash: Canal writes everything to partition 0, and so does the import.
        assertThat(PipelineSections.of(config).route().get(PartitionOptions.UNMATCHED))
                .isEqualTo(Unmatched.ZERO);
        assertThat(config.toMap()).doesNotContainKey("sink.kafka.properties.linger.ms");
    }

    @Test
    void startsWhereCanalsMetaCursorIs() throws IOException {
        Path meta = dir.resolve("meta.dat");
        Files.writeString(
                meta,
                "{\"clientDatas\":[{\"clientIdentity\":{\"clientId\":1001,\"destination\":\"shop\","
                        + "\"filter\":\"\"},\"cursor\":{\"identity\":{\"slaveId\":-1,"
                        + "\"sourceAddress\":{\"address\":\"db-primary.internal\",\"port\":3307}},"
                        + "\"postion\":{\"gtid\":\"\",\"included\":false,"
                        + "\"journalName\":\"mysql-bin.000057\",\"position\":98213,"
                        + "\"serverId\":1,\"timestamp\":1718000000000}}}],"
                        + "\"destination\":\"shop\"}");
        assertThat(
                        run(
                                resource("kafka/canal.properties"),
                                resource("kafka/instance.properties"),
                                "--meta",
                                meta.toString()))
                .as(err())
                .isZero();
        Configuration config = load();
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.STARTUP_BINLOG_FILE))
                .isEqualTo("mysql-bin.000057");
        assertThat(
                        PipelineSections.of(config)
                                .source()
                                .get(MySqlSourceOptions.STARTUP_BINLOG_POSITION))
                .isEqualTo(98213L);
    }

    @Test
    void namesEveryKeyItCannotTranslateWithItsLine() throws IOException {
        Path instance = dir.resolve("instance.properties");
        String text = Files.readString(resource("kafka/instance.properties"));
        text =
                text.replace(
                                        "canal.instance.filter.regex=shop\\\\..*,crm\\\\.customers",
                                        "canal.instance.filter.regex=shop\\\\.(orders,crm\\\\.customers")
                                .replace(
                                        "canal.mq.dynamicTopic=orders:shop\\\\.order_.*,crm",
                                        "canal.mq.dynamicTopic=orders:shop\\\\.order_[0-9,crm")
                                .replace(
                                        "#canal.instance.filter.field=test1.t_product:id/",
                                        "canal.instance.filter.field=test1.t_product/")
                        + "canal.mq.dynamicTopicPartitionNumber=orders:6\n";
        Files.writeString(instance, text);
        List<String> lines = Files.readAllLines(instance);

        assertThat(run(resource("kafka/canal.properties"), instance)).isEqualTo(1);
        String message = err();
        assertThat(message)
                .contains("4 Canal setting(s) cannot be translated")
                .contains(
                        "instance.properties:"
                                + lineOf(lines, "canal.instance.filter.regex=")
                                + ": canal.instance.filter.regex: 'shop\\.(orders' is not a regular"
                                + " expression")
                .contains(
                        "instance.properties:"
                                + lineOf(lines, "canal.mq.dynamicTopic=")
                                + ": Option 'canal.mq.dynamicTopic' has an invalid regular"
                                + " expression 'shop\\.order_[0-9'")
                .contains(
                        "instance.properties:"
                                + lineOf(lines, "canal.instance.filter.field=")
                                + ": canal.instance.filter.field: Option"
                                + " 'filter.columns.include' item"
                                + " 'test1.t_product/subject/keywords' has no ':'")
                .contains(
                        "instance.properties:"
                                + lineOf(lines, "canal.mq.dynamicTopicPartitionNumber")
                                + ": canal.mq.dynamicTopicPartitionNumber: is not a Canal key");
        assertThat(out.size()).isZero();
        assertThat(message).doesNotContain("Canal-Pa55word");
    }

    @Test
    void columnAndChangeTypeFiltersCarryOver() throws IOException {
        Path server =
                edited(
                        "kafka/canal.properties",
                        "canal.instance.filter.dml.delete = false",
                        "canal.instance.filter.dml.delete = true");
        Path instance =
                edited(
                        "kafka/instance.properties",
                        "#canal.instance.filter.field=",
                        "canal.instance.filter.field=",
                        "#canal.instance.filter.black.field=",
                        "canal.instance.filter.black.field=");
        assertThat(run(server, instance)).as(err()).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("# From canal.instance.filter.dml.delete=true.");

        Configuration config = load();
        assertThat(PipelineSections.of(config).filter().get(FilterOptions.COLUMNS_INCLUDE))
                .isEqualTo(
                        "test1.t_product:id/subject/keywords,test2.t_company:id/name/contact/ch");
        assertThat(PipelineSections.of(config).filter().get(FilterOptions.COLUMNS_EXCLUDE))
                .isEqualTo(
                        "test1.t_product:subject/product_image,test2.t_company:id/name/contact/ch");
        assertThat(PipelineSections.of(config).filter().get(FilterOptions.TYPES))
                .containsExactly(
                        ChangeKind.INSERT, ChangeKind.UPDATE, ChangeKind.DDL, ChangeKind.QUERY);
        assertThat(FilterSettings.from(PipelineSections.of(config).filter()).dropsChanges())
                .isTrue();
    }

    @Test
    void canalWithoutRowsWritesOnlyStatements() throws IOException {
        Path server =
                edited(
                        "kafka/canal.properties",
                        "canal.instance.filter.rows = false",
                        "canal.instance.filter.rows = true");
        assertThat(run(server, resource("kafka/instance.properties"))).as(err()).isZero();
        Configuration config = load();
        assertThat(PipelineSections.of(config).filter().get(FilterOptions.TYPES))
                .containsExactly(ChangeKind.DDL, ChangeKind.QUERY);
        assertThat(config.toMap()).doesNotContainKeys("filter.columns.include");
    }

    @Test
    void refusesTcpModeAndASecondSourceServer() throws IOException {
        Path server =
                edited(
                        "kafka/canal.properties",
                        "canal.serverMode = kafka",
                        "canal.serverMode = tcp");
        Path instance =
                edited(
                        "kafka/instance.properties",
                        "#canal.instance.standby.address =",
                        "canal.instance.standby.address = db-standby:3306");
        assertThat(run(server, instance)).isEqualTo(1);
        assertThat(err())
                .contains(
                        "canal.properties:25: canal.serverMode: cannot be translated with the"
                                + " value 'tcp'")
                .contains(
                        "canal.instance.standby.address: cannot be translated with the value"
                                + " 'db-standby:3306'");
    }

    @Test
    void databasePartOfATableRegexComesFirst() {
        assertThat(CanalImport.databaseFirst("shop\\..*")).isEqualTo("shop\\..*");
        assertThat(CanalImport.databaseFirst(".*\\..*")).isEqualTo("[^\\x2E]*\\..*");
        assertThat(CanalImport.databaseFirst("shop_.+\\.orders"))
                .isEqualTo("shop_[^\\x2E]+\\.orders");
        assertThat(CanalImport.databaseFirst("[a.]b\\.t")).isEqualTo("[a.]b\\.t");
        assertThat(CanalImport.databaseFirst("shop.orders")).isEqualTo("shop.orders");
    }

    @Test
    void missingFileIsNamed() {
        Path missing = dir.resolve("conf/example/instance.properties");
        assertThat(run(resource("kafka/canal.properties"), missing)).isEqualTo(2);
        assertThat(err()).contains("The Canal property file '" + missing + "' does not exist");
    }

    @Test
    void badMetaFileIsNamed() throws IOException {
        Path meta = dir.resolve("meta.dat");
        Files.writeString(meta, "{\"clientDatas\":[]}");
        assertThat(
                        run(
                                resource("kafka/canal.properties"),
                                resource("kafka/instance.properties"),
                                "--meta",
                                meta.toString()))
                .isEqualTo(1);
        assertThat(err())
                .contains("Canal's meta file '" + meta + "' must hold one client's cursor");
    }

    /** A copy of the resource in the test's folder, each (old, new) pair of lines replaced. */
    private Path edited(String resource, String... pairs) throws IOException {
        String text = Files.readString(resource(resource));
        for (int i = 0; i < pairs.length; i += 2) {
            assertThat(text).as(resource).contains(pairs[i]);
            text = text.replace(pairs[i], pairs[i + 1]);
        }
        Path copy = dir.resolve(Path.of(resource).getFileName());
        Files.writeString(copy, text);
        return copy;
    }

    private Configuration load() throws IOException {
        Path yaml = dir.resolve("loaded.yaml");
        Files.writeString(yaml, out.toString(StandardCharsets.UTF_8));
        return JobConfigLoader.fromArgs(ENV, "--config", yaml.toString());
    }

    private int run(Path canal, Path instance, String... more) {
        String[] args = new String[2 + more.length];
        args[0] = canal.toString();
        args[1] = instance.toString();
        System.arraycopy(more, 0, args, 2, more.length);
        return ImportCanal.run(
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                args);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static int lineOf(List<String> lines, String start) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(start)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line starts with " + start);
    }

    static Path resource(String name) {
        try {
            return Path.of(ImportCanalTest.class.getResource("/canal/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
