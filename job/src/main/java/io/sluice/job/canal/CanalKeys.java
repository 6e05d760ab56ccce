package io.sluice.job.canal;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Canal keys the import does not translate: those Sluice needs no counterpart of (Canal's own
 * server, store and parser plumbing), and those it accepts only at a value that changes nothing.
 */
final class CanalKeys {

    /** Canal's own plumbing: accepted with any value, listed at the end of the output. */
    static final List<String> NOT_NEEDED_PREFIXES =
            List.of(
                    "canal.id",
                    "canal.ip",
                    "canal.register.ip",
                    "canal.port",
                    "canal.metrics.pull.port",
                    "canal.user",
                    "canal.passwd",
                    "canal.admin.",
                    "canal.zkServers",
                    "canal.zookeeper.",
                    "canal.withoutNetty",
                    "canal.file.",
                    "canal.conf.dir",
                    "canal.auto.scan",
                    "canal.auto.reset.latest.pos.mode",
                    "canal.instance.global.",
                    "canal.instance.memory.",
                    "canal.instance.detecting.",
                    "canal.instance.transaction.size",
                    "canal.instance.fallbackIntervalInSeconds",
                    "canal.instance.network.",
                    "canal.instance.filter.druid.ddl",
                    "canal.instance.filter.table.error",
                    "canal.instance.filter.transaction.entry",
                    "canal.instance.binlog.format",
                    "canal.instance.binlog.image",
                    "canal.instance.get.ddl.isolation",
                    "canal.instance.parser.",
                    "canal.instance.tsdb.",
                    "canal.instance.connectionCharset",
                    "canal.instance.defaultDatabaseName",
                    "canal.instance.pwdPublicKey",
                    "canal.mq.canalBatchSize",
                    "canal.mq.canalGetTimeout",
                    "canal.mq.send.thread.size",
                    "canal.mq.build.thread.size");

    /** Keys accepted only at one of these values (lower case; "" = blank), with the reason. */
    private static final Map<String, Neutral> NEUTRAL =
            Map.ofEntries(
                    neutral(
                            "canal.instance.standby.address",
                            "Sluice reads one server; point source.hostname at it",
                            ""),
                    neutral("canal.instance.standby.journal.name", "no standby in Sluice", ""),
                    neutral("canal.instance.standby.position", "no standby in Sluice", ""),
                    neutral("canal.instance.standby.timestamp", "no standby in Sluice", ""),
                    neutral("canal.instance.standby.gtid", "no standby in Sluice", ""),
                    neutral(
                            "canal.instance.rds.accesskey",
                            "Sluice does not read RDS binlog backups from OSS",
                            ""),
                    neutral("canal.instance.rds.secretkey", "no RDS OSS binlogs in Sluice", ""),
                    neutral("canal.instance.rds.instanceId", "no RDS OSS binlogs in Sluice", ""),
                    neutral(
                            "canal.instance.enableDruid",
                            "an encrypted password: give Sluice the plain one in"
                                    + " SLUICE_SOURCE_PASSWORD",
                            "false"),
                    neutral("canal.aliyun.accessKey", "no Aliyun cloud MQ in Sluice", ""),
                    neutral("canal.aliyun.secretKey", "no Aliyun cloud MQ in Sluice", ""),
                    neutral("canal.aliyun.uid", "no Aliyun cloud MQ in Sluice", ""),
                    neutral("canal.mq.accessChannel", "no Aliyun cloud MQ in Sluice", "local"),
                    neutral(
                            "canal.mq.partition",
                            "Sluice's only fixed partition is 0 (route.partition-unmatched: ZERO)",
                            "",
                            "0"),
                    neutral(
                            "kafka.kerberos.enable",
                            "set the Kerberos client under sink.properties (sasl.*,"
                                    + " docs/operations.md)",
                            "false"),
                    neutral(
                            "canal.mq.kafka.kerberos.enable",
                            "set the Kerberos client under sink.properties (sasl.*)",
                            "false"),
                    neutral("rocketmq.enable.message.trace", "no message trace in Sluice", "false"),
                    neutral("rocketmq.customized.trace.topic", "no message trace in Sluice", ""),
                    neutral("rocketmq.namespace", "Sluice's RocketMQ sink has no namespace", ""),
                    neutral("rocketmq.tag", "Sluice's RocketMQ messages have no tag", ""));

    private CanalKeys() {}

    static boolean notNeeded(String key) {
        return NOT_NEEDED_PREFIXES.stream().anyMatch(key::startsWith);
    }

    /** Why {@code key} cannot take {@code value}, or empty when it is neutral there or unknown. */
    static Optional<String> neutralProblem(String key, String value) {
        Neutral neutral = NEUTRAL.get(key);
        if (neutral == null || neutral.values.contains(value.trim().toLowerCase())) {
            return Optional.empty();
        }
        return Optional.of(neutral.reason);
    }

    static boolean isNeutralKey(String key) {
        return NEUTRAL.containsKey(key);
    }

    private static Map.Entry<String, Neutral> neutral(String key, String reason, String... values) {
        return Map.entry(key, new Neutral(reason, List.of(values)));
    }

    private static final class Neutral {
        final String reason;
        final List<String> values;

        Neutral(String reason, List<String> values) {
            this.reason = reason;
            this.values = values;
        }
    }
}
