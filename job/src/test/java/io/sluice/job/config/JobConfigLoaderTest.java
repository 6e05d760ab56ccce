package io.sluice.job.config;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;

import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.functions.filter.ChangeKind;
import io.sluice.functions.filter.FilterOptions;
import io.sluice.functions.route.DdlPartitions;
import io.sluice.functions.route.PartitionOptions;
import io.sluice.functions.route.PartitionRules.Unmatched;
import io.sluice.functions.sink.KafkaSinkFactory;
import io.sluice.functions.sink.KafkaSinkOptions;
import io.sluice.functions.sink.rocketmq.RocketMqSinkOptions;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.job.config.internal.RenamedKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobConfigLoaderTest {

    @RegisterExtension
    final LoggerAuditingExtension renamedKeysLog =
            new LoggerAuditingExtension(RenamedKeys.class, Level.WARN);

    @Test
    void readsTypedOptions() {
        Configuration config =
                JobConfigLoader.fromArgs(
                        "--set", "source.port=3307",
                        "--set", "source.tables=shop.orders;shop.customers",
                        "--set", "sink.kafka.delivery-guarantee=at-least-once",
                        "--set", "job.checkpoint-interval=2s");

        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.PORT))
                .isEqualTo(3307);
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.TABLES))
                .isEqualTo(List.of("shop.orders", "shop.customers"));
        assertThat(PipelineSections.of(config).kafka().get(KafkaSinkOptions.DELIVERY_GUARANTEE))
                .isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
        assertThat(JobOptions.job(config).get(JobOptions.CHECKPOINT_INTERVAL))
                .isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void unknownKeyIsNamed() {
        assertThatThrownBy(() -> JobConfigLoader.fromArgs("--set", "source.hots=x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Unknown option 'source.hots'")
                .hasMessageContaining("source.hostname");
    }

    @Test
    void readsRocketMqOptions() {
        Configuration config =
                JobConfigLoader.fromArgs(
                        "--set", "sink.rocketmq.name-server=127.0.0.1:9876",
                        "--set", "sink.rocketmq.send-timeout=3s");
        assertThat(PipelineSections.of(config).rocketMq().get(RocketMqSinkOptions.NAME_SERVER))
                .isEqualTo("127.0.0.1:9876");
        assertThat(PipelineSections.of(config).rocketMq().get(RocketMqSinkOptions.SEND_TIMEOUT))
                .isEqualTo(Duration.ofSeconds(3));
        assertThatThrownBy(
                        () -> JobConfigLoader.fromArgs("--set", "sink.rocketmq.send-timeout=soon"))
                .hasMessageContaining("'sink.rocketmq.send-timeout'")
                .hasMessageContaining("'soon'");
    }

    @Test
    void badValueNamesKeyAndValue() {
        assertThatThrownBy(() -> JobConfigLoader.fromArgs("--set", "source.port=abc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'source.port'")
                .hasMessageContaining("'abc'");
    }

    @Test
    void enumValuesAreKebabCaseAndOldUpperCaseStillLoads() {
        Configuration config =
                JobConfigLoader.fromArgs(
                        "--set",
                        "route.partition-unmatched=primary-key",
                        "--set",
                        "route.ddl-partitions=zero",
                        "--set",
                        "filter.types=insert;ddl");
        assertThat(PipelineSections.of(config).route().get(PartitionOptions.UNMATCHED))
                .isEqualTo(Unmatched.PRIMARY_KEY);
        assertThat(PipelineSections.of(config).route().get(PartitionOptions.DDL_PARTITIONS))
                .isEqualTo(DdlPartitions.ZERO);
        assertThat(PipelineSections.of(config).filter().get(FilterOptions.TYPES))
                .containsExactly(ChangeKind.INSERT, ChangeKind.DDL);
        assertThat(PartitionOptions.UNMATCHED.defaultValue()).hasToString("primary-key");

        // Deprecated for one release: the upper snake case the options once documented.
        Configuration old =
                JobConfigLoader.fromArgs(
                        "--set", "route.partition-unmatched=PRIMARY_KEY",
                        "--set", "route.ddl-partitions=EVERY");
        assertThat(PipelineSections.of(old).route().get(PartitionOptions.UNMATCHED))
                .isEqualTo(Unmatched.PRIMARY_KEY);
        assertThat(PipelineSections.of(old).route().get(PartitionOptions.DDL_PARTITIONS))
                .isEqualTo(DdlPartitions.EVERY);

        assertThatThrownBy(
                        () ->
                                JobConfigLoader.fromArgs(
                                        "--set", "route.partition-unmatched=PK_HASH"))
                .hasMessageContaining(
                        "Option 'route.partition-unmatched' cannot take the value 'PK_HASH'");
    }

    @Test
    void badShapeIsNamed() {
        assertThatThrownBy(() -> JobConfigLoader.fromArgs("source.port=1"))
                .hasMessageContaining("'--set key=value'");
    }

    @Test
    void yamlFileWithEnvironmentSecretsAndOverrides(@TempDir Path dir) throws IOException {
        Path yaml = dir.resolve("sluice.yaml");
        Files.writeString(
                yaml,
                "source:\n"
                        + "  hostname: db.internal\n"
                        + "  port: 3307\n"
                        + "  password: ${env:SLUICE_DB_PASSWORD}\n"
                        + "  tables:\n"
                        + "    - shop.orders\n"
                        + "    - shop.customers\n"
                        + "sink:\n"
                        + "  kafka.bootstrap-servers: k1:9092\n"
                        + "  kafka.properties.linger.ms: 5\n");

        Configuration config =
                JobConfigLoader.fromArgs(
                        Map.of("SLUICE_DB_PASSWORD", "s3cret"),
                        "--config",
                        yaml.toString(),
                        "--set",
                        "source.port=3308");

        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.HOSTNAME))
                .isEqualTo("db.internal");
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.PORT))
                .isEqualTo(3308);
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.PASSWORD))
                .isEqualTo("s3cret");
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.TABLES))
                .containsExactly("shop.orders", "shop.customers");
        assertThat(config.toMap()).containsEntry("sink.kafka.properties.linger.ms", "5");
    }

    @Test
    void missingEnvironmentVariableIsNamed() {
        assertThatThrownBy(
                        () ->
                                JobConfigLoader.fromArgs(
                                        Map.of(), "--set", "source.password=${env:NOPE}"))
                .hasMessageContaining("'source.password'")
                .hasMessageContaining("'NOPE'")
                .hasMessageContaining("not set");
    }

    @Test
    void unknownKeyInYamlIsNamed(@TempDir Path dir) throws IOException {
        Path yaml = dir.resolve("bad.yaml");
        Files.writeString(yaml, "source:\n  hots: x\n");

        assertThatThrownBy(() -> JobConfigLoader.fromArgs(Map.of(), "--config", yaml.toString()))
                .hasMessageContaining("Unknown option 'source.hots'");
        assertThatThrownBy(() -> JobConfigLoader.fromArgs(Map.of(), "--config", "/nope.yaml"))
                .hasMessageContaining("'/nope.yaml' does not exist");
    }

    @Test
    void shippedExampleLoadsWithDeclaredKeysOnly() {
        Configuration config =
                JobConfigLoader.fromArgs(
                        Map.of("SLUICE_SOURCE_PASSWORD", "pw"), "--config", "../conf/sluice.yaml");

        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.PASSWORD))
                .isEqualTo("pw");
        // Every key is a declared option (or a producer property), none a deprecated name.
        assertThat(config.keySet())
                .allSatisfy(
                        key ->
                                assertThat(
                                                JobConfigLoader.knownKeys().contains(key)
                                                        || key.startsWith("sink.kafka.properties."))
                                        .as(key)
                                        .isTrue());
        assertThat(renamedKeysLog.getMessages()).isEmpty();
    }

    @Test
    void aRenamedKeyLoadsWithOneWarningAndTheSameEffect(@TempDir Path dir) throws IOException {
        Path yaml = dir.resolve("old.yaml");
        Files.writeString(
                yaml,
                "format: canal-binary\n"
                        + "format.group-rows: event\n"
                        + "sink:\n"
                        + "  transaction-timeout: 5 min\n"
                        + "  properties.linger.ms: 20\n");
        Configuration old =
                JobConfigLoader.fromArgs(
                        Map.of(),
                        "--config",
                        yaml.toString(),
                        "--set",
                        "sink.delivery-guarantee=at-least-once");
        Configuration renamed =
                JobConfigLoader.fromArgs(
                        "--set", "encode.format=canal-binary",
                        "--set", "encode.group-rows=event",
                        "--set", "sink.kafka.transaction-timeout=5 min",
                        "--set", "sink.kafka.properties.linger.ms=20",
                        "--set", "sink.kafka.delivery-guarantee=at-least-once",
                        "--set", "sink.rocketmq.delivery-guarantee=at-least-once");

        assertThat(old.toMap()).isEqualTo(renamed.toMap());
        assertThat(PipelineSections.of(old).kafka().get(KafkaSinkOptions.TRANSACTION_TIMEOUT))
                .isEqualTo(Duration.ofMinutes(5));
        assertThat(renamedKeysLog.getMessages())
                .containsExactly(
                        "Option 'format' is deprecated and will stop working in the next release;"
                                + " write 'encode.format' instead.",
                        "Option 'format.group-rows' is deprecated and will stop working in the next"
                                + " release; write 'encode.group-rows' instead.",
                        "Option 'sink.transaction-timeout' is deprecated and will stop working in"
                                + " the next release; write 'sink.kafka.transaction-timeout'"
                                + " instead.",
                        "Option 'sink.properties.linger.ms' is deprecated and will stop working in"
                                + " the next release; write 'sink.kafka.properties.linger.ms'"
                                + " instead.",
                        "Option 'sink.delivery-guarantee' is deprecated and will stop working in"
                                + " the next release; write 'sink.kafka.delivery-guarantee' or"
                                + " 'sink.rocketmq.delivery-guarantee' instead.");
    }

    @Test
    void aRenamedKeyNextToItsNewNameFailsNamingBoth(@TempDir Path dir) throws IOException {
        assertThatThrownBy(
                        () ->
                                JobConfigLoader.fromArgs(
                                        "--set", "format=canal-flat",
                                        "--set", "encode.format=canal-binary"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Options 'format' and 'encode.format' are both given, but 'format' is the"
                                + " deprecated name of 'encode.format': give only 'encode.format'");
        Path yaml = dir.resolve("both.yaml");
        Files.writeString(
                yaml, "sink:\n  delivery-guarantee: none\n  rocketmq.delivery-guarantee: none\n");
        assertThatThrownBy(() -> JobConfigLoader.fromArgs(Map.of(), "--config", yaml.toString()))
                .hasMessageContaining("'sink.delivery-guarantee'")
                .hasMessageContaining("'sink.rocketmq.delivery-guarantee'");
        // An override in the new name still overrides a file's old name, and the reverse.
        Path old = dir.resolve("old.yaml");
        Files.writeString(old, "format: canal-binary\n");
        assertThat(
                        JobConfigLoader.fromArgs(
                                        Map.of(),
                                        "--config",
                                        old.toString(),
                                        "--set",
                                        "encode.format=canal-flat")
                                .toMap())
                .containsEntry("encode.format", "canal-flat");
    }

    @Test
    void operationsMdListsEveryRenamedKey() throws IOException {
        String docs = Files.readString(Path.of("../docs/operations.md"));
        RenamedKeys.table()
                .forEach(
                        (old, renamed) -> {
                            String star = old.endsWith(".") ? "*" : "";
                            assertThat(docs)
                                    .contains(
                                            "| `"
                                                    + old
                                                    + star
                                                    + "` | "
                                                    + renamed.stream()
                                                            .map(now -> "`" + now + star + "`")
                                                            .collect(
                                                                    java.util.stream.Collectors
                                                                            .joining(" or "))
                                                    + " |");
                        });
    }

    @Test
    void aSectionsErrorNamesTheFullYamlKey() {
        Configuration config =
                JobConfigLoader.fromArgs(
                        "--set", "sink.kafka.bootstrap-servers=k1:9092",
                        "--set", "sink.kafka.transaction-timeout=0 s",
                        "--set", "encode.group-rows=event",
                        "--set", "encode.group-rows.idle-flush=1 min");
        PipelineSections sections = PipelineSections.of(config);

        assertThatThrownBy(() -> KafkaSinkFactory.sink(sections.kafka()))
                .hasMessage(
                        "Option 'sink.kafka.transaction-timeout' must be positive, but is PT0S");
        assertThatThrownBy(() -> GroupSettings.from(sections.encode()))
                .hasMessageStartingWith("Option 'encode.group-rows.idle-flush' must be between");
    }

    @Test
    void relativeConfigPathIsFoundBesideTheJar(@TempDir Path usrlib) throws IOException {
        Path conf = Files.createDirectories(usrlib.resolve("conf-" + System.nanoTime()));
        Files.writeString(conf.resolve("sluice.yaml"), "source:\n  port: 3310\n");
        String relative = conf.getFileName() + "/sluice.yaml";

        assertThat(JobConfigLoader.besideJar(relative, Optional.of(usrlib)))
                .isEqualTo(conf.resolve("sluice.yaml"));
        // Not beside the jar either: the path stays as given, so the error names it.
        assertThat(JobConfigLoader.besideJar("nowhere/sluice.yaml", Optional.of(usrlib)))
                .isEqualTo(Path.of("nowhere/sluice.yaml"));
        assertThatThrownBy(() -> JobConfigLoader.fromArgs("--config", "nowhere/sluice.yaml"))
                .hasMessageContaining("'nowhere/sluice.yaml' does not exist")
                .hasMessageContaining("beside the job jar");
    }

    @Test
    void findsTheJarFolderFromTheRelativeUrlsOfApplicationMode() throws Exception {
        // Application mode puts usrlib/ on the user classpath as URLs relative to the working dir.
        assertThat(JobConfigLoader.dirOf(new URL("file:usrlib/sluice-job.jar")))
                .contains(Path.of("usrlib").toAbsolutePath());
        assertThat(JobConfigLoader.dirOf(new URL("file:/opt/flink/usrlib/sluice-job.jar")))
                .contains(Path.of("/opt/flink/usrlib"));
        assertThat(JobConfigLoader.dirOf(new URL("file:///opt/flink/usr%20lib/sluice-job.jar")))
                .contains(Path.of("/opt/flink/usr lib"));
        assertThat(JobConfigLoader.dirOf(new URL("https://example.com/sluice-job.jar"))).isEmpty();
        assertThat(JobConfigLoader.dirOf(null)).isEmpty();
    }

    @Test
    void yamlScalarsKeepTheirTextForStringOptions(@TempDir Path dir) throws IOException {
        Path yaml = dir.resolve("sluice.yaml");
        Files.writeString(
                yaml,
                "source:\n"
                        + "  hostname: 0800\n"
                        + "  password: 0123\n"
                        + "  username: 1e3\n"
                        + "  port: 3307\n"
                        + "  include-queries: true\n"
                        + "job:\n"
                        + "  checkpoint-interval: 10s\n"
                        + "sink:\n"
                        + "  kafka.properties.linger.ms: 05\n");

        Configuration config = JobConfigLoader.fromArgs(Map.of(), "--config", yaml.toString());

        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.HOSTNAME))
                .isEqualTo("0800");
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.PASSWORD))
                .isEqualTo("0123");
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.USERNAME))
                .isEqualTo("1e3");
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.PORT))
                .isEqualTo(3307);
        assertThat(PipelineSections.of(config).source().get(MySqlSourceOptions.INCLUDE_QUERIES))
                .isTrue();
        assertThat(JobOptions.job(config).get(JobOptions.CHECKPOINT_INTERVAL))
                .isEqualTo(Duration.ofSeconds(10));
        assertThat(config.toMap()).containsEntry("sink.kafka.properties.linger.ms", "05");
    }

    @Test
    void aYamlKeyWithoutValueIsNamed(@TempDir Path dir) throws IOException {
        Path yaml = dir.resolve("empty.yaml");
        Files.writeString(yaml, "source:\n  password:\n");

        assertThatThrownBy(() -> JobConfigLoader.fromArgs(Map.of(), "--config", yaml.toString()))
                .hasMessageContaining("Option 'source.password'")
                .hasMessageContaining("has no value");
    }

    @Test
    void invalidYamlNamesTheLineButNotTheText(@TempDir Path dir) throws IOException {
        Path yaml = dir.resolve("bad.yaml");
        Files.writeString(yaml, "source:\n  password: Secret-42\n   port: [\n");

        assertThatThrownBy(() -> JobConfigLoader.fromArgs(Map.of(), "--config", yaml.toString()))
                .hasMessageContaining("is not valid YAML")
                .hasMessageContaining("line 3")
                .hasMessageNotContaining("Secret-42");
    }

    @Test
    void aSecretInAMisshapenArgumentIsMasked() {
        assertThatThrownBy(() -> JobConfigLoader.fromArgs("source.password=Secret-42"))
                .hasMessageContaining("'--set key=value'")
                .hasMessageContaining("'source.password=******'")
                .hasMessageNotContaining("Secret-42");
        assertThatThrownBy(
                        () ->
                                JobConfigLoader.fromArgs(
                                        "--config",
                                        "conf/x.yaml",
                                        "sink.properties.sasl.jaas.config=x y"))
                .hasMessageNotContaining("x y");
        assertThatThrownBy(() -> JobConfigLoader.fromArgs("source.hostname=db"))
                .hasMessageContaining("'source.hostname=db'");
    }

    @Test
    void anEnvironmentReferenceWithoutItsClosingBraceIsRefused() {
        for (String value : List.of("${env:SLUICE_PW", "a-${env:SLUICE_PW-b", "${env:A ${env:B}")) {
            assertThatThrownBy(
                            () ->
                                    JobConfigLoader.fromArgs(
                                            Map.of("SLUICE_PW", "pw", "B", "b"),
                                            "--set",
                                            "source.password=" + value))
                    .as(value)
                    .hasMessageContaining("Option 'source.password'")
                    .hasMessageContaining("'${env:NAME}'");
        }
    }
}
