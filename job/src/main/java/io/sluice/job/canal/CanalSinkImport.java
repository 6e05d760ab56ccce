package io.sluice.job.canal;

import io.sluice.job.config.internal.Secrets;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Canal's {@code canal.serverMode}, {@code canal.mq.flatMessage} and producer keys to Sluice's sink
 * and format. Canal hands every {@code kafka.*} key to its producer; Sluice does the same under
 * {@code sink.properties.}, except the keys its exactly-once producer owns and Canal's shipped
 * tuning defaults, where Sluice's own defaults are faster.
 */
final class CanalSinkImport {

    /** Keys Sluice's transactional producer sets itself. */
    private static final Set<String> OWNED_BY_SLUICE =
            Set.of(
                    "acks",
                    "retries",
                    "enable.idempotence",
                    "max.in.flight.requests.per.connection",
                    "transactional.id",
                    "key.serializer",
                    "value.serializer");

    /** Canal's shipped producer tuning: left out, so that Sluice's defaults apply. */
    private static final Map<String, String> CANAL_SHIPPED =
            Map.of(
                    "batch.size", "16384",
                    "linger.ms", "1",
                    "compression.type", "none",
                    "max.request.size", "1048576",
                    "buffer.memory", "33554432");

    /** Canal 1.1.4's producer keys and the Kafka keys they stand for. */
    private static final Map<String, String> CANAL_114 =
            Map.of(
                    "canal.mq.batchSize", "batch.size",
                    "canal.mq.lingerMs", "linger.ms",
                    "canal.mq.maxRequestSize", "max.request.size",
                    "canal.mq.bufferMemory", "buffer.memory",
                    "canal.mq.compressionType", "compression.type",
                    "canal.mq.acks", "acks",
                    "canal.mq.retries", "retries");

    private CanalSinkImport() {}

    static void translate(CanalSettings canal, SluiceYaml yaml, List<String> problems) {
        String mode = canal.take("canal.serverMode").orElse("tcp").toLowerCase(Locale.ROOT);
        boolean flat = canal.take("canal.mq.flatMessage").map(CanalSettings::isTrue).orElse(true);
        yaml.set(
                "encode.format",
                flat ? "canal-flat" : "canal-binary",
                "From canal.mq.flatMessage=" + flat + ".");
        switch (mode) {
            case "kafka":
                yaml.set("sink.type", "kafka", "From canal.serverMode=kafka.");
                kafka(canal, yaml, problems);
                ignore(canal, "rocketmq.", "rabbitmq.", "pulsarmq.");
                break;
            case "rocketmq":
                yaml.set("sink.type", "rocketmq", "From canal.serverMode=rocketMQ.");
                rocketMq(canal, yaml, problems);
                ignore(canal, "kafka.", "rabbitmq.", "pulsarmq.");
                break;
            default:
                CanalImport.problem(
                        problems,
                        canal,
                        "canal.serverMode",
                        "cannot be translated with the value '"
                                + mode
                                + "': Sluice writes to Kafka or RocketMQ (kafka, rocketMQ)"
                                + (canal.has("canal.serverMode")
                                        ? ""
                                        : "; Canal's default is tcp"));
                ignore(canal, "kafka.", "rocketmq.", "rabbitmq.", "pulsarmq.");
        }
    }

    private static void kafka(CanalSettings canal, SluiceYaml yaml, List<String> problems) {
        Optional<String> servers =
                canal.take("kafka.bootstrap.servers").or(() -> canal.take("canal.mq.servers"));
        servers.ifPresentOrElse(
                s -> yaml.set("sink.kafka.bootstrap-servers", s, "From kafka.bootstrap.servers."),
                () ->
                        CanalImport.problem(
                                problems,
                                canal,
                                "kafka.bootstrap.servers",
                                "is required in kafka mode: the brokers to write to"));
        canal.take("kafka.kerberos.krb5.file");
        canal.take("kafka.kerberos.jaas.file");
        CANAL_114.forEach(
                (old, kafkaKey) ->
                        canal.take(old).ifPresent(v -> property(yaml, old, kafkaKey, v)));
        for (String key : canal.keysUnder("kafka.")) {
            if (key.startsWith("kafka.kerberos.")) {
                continue; // kafka.kerberos.enable is checked as a neutral key.
            }
            canal.take(key)
                    .ifPresent(v -> property(yaml, key, key.substring("kafka.".length()), v));
        }
    }

    private static void property(SluiceYaml yaml, String canalKey, String kafkaKey, String value) {
        if (OWNED_BY_SLUICE.contains(kafkaKey)) {
            yaml.footer(
                    canalKey
                            + ": not translated, Sluice's exactly-once producer sets "
                            + kafkaKey
                            + " itself.");
            return;
        }
        if (value.equals(CANAL_SHIPPED.get(kafkaKey))) {
            yaml.footer(
                    canalKey
                            + "="
                            + value
                            + ": Canal's shipped default, left to Sluice's default.");
            return;
        }
        String key = "sink.kafka.properties." + kafkaKey;
        if (Secrets.isSecret(key)) {
            String env =
                    "SLUICE_KAFKA_"
                            + kafkaKey.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
            yaml.set(key, "${env:" + env + "}", canalKey + " is a secret: set " + env + ".");
        } else {
            yaml.set(key, value, "From " + canalKey + ".");
        }
    }

    private static void rocketMq(CanalSettings canal, SluiceYaml yaml, List<String> problems) {
        canal.take("rocketmq.namesrv.addr")
                .or(() -> canal.take("canal.mq.servers"))
                .ifPresentOrElse(
                        s ->
                                yaml.set(
                                        "sink.rocketmq.name-server",
                                        s,
                                        "From rocketmq.namesrv.addr."),
                        () ->
                                CanalImport.problem(
                                        problems,
                                        canal,
                                        "rocketmq.namesrv.addr",
                                        "is required in rocketMQ mode: the name server"));
        canal.take("rocketmq.producer.group")
                .or(() -> canal.take("canal.mq.producerGroup"))
                .ifPresent(
                        g ->
                                yaml.set(
                                        "sink.rocketmq.producer-group",
                                        g + "-sluice",
                                        "From rocketmq.producer.group, suffixed: Sluice's group"
                                                + " must differ from Canal's while both run."));
        canal.take("rocketmq.retry.times.when.send.failed"); // A failed send fails the job.
        canal.take("rocketmq.vip.channel.enabled");
    }

    /** Keys of the producers Canal does not use in this mode: Canal ignores them too. */
    private static void ignore(CanalSettings canal, String... prefixes) {
        for (String prefix : prefixes) {
            canal.keysUnder(prefix).forEach(canal::take);
        }
    }
}
