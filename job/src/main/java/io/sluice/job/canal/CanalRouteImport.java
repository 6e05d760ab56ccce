package io.sluice.job.canal;

import io.sluice.functions.route.PartitionCountRules;
import io.sluice.functions.route.PartitionRules;
import io.sluice.functions.route.PartitionRules.Unmatched;
import io.sluice.functions.route.TopicRouter;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Canal's routing keys to Sluice's, which take the same syntax: {@code canal.mq.topic}, {@code
 * dynamicTopic}, {@code partitionHash}, {@code partitionsNum}, {@code dynamicTopicPartitionNum},
 * {@code database.hash}. Each rule is parsed by Sluice's own parser, so a bad one is reported under
 * the Canal key that holds it.
 */
final class CanalRouteImport {

    private CanalRouteImport() {}

    static void translate(CanalSettings canal, SluiceYaml yaml, List<String> problems) {
        String defaultTopic = canal.take("canal.mq.topic").orElse("sluice");
        yaml.set(
                "route.default-topic",
                defaultTopic,
                canal.has("canal.mq.topic")
                        ? "From canal.mq.topic."
                        : "canal.mq.topic is not set: Sluice's default.");
        canal.take("canal.mq.dynamicTopic")
                .ifPresent(
                        rules -> {
                            if (parses(
                                    problems,
                                    canal,
                                    "canal.mq.dynamicTopic",
                                    () ->
                                            TopicRouter.create(
                                                    rules,
                                                    "",
                                                    defaultTopic,
                                                    "canal.mq.dynamicTopic"))) {
                                yaml.set(
                                        "route.dynamic-topic",
                                        rules,
                                        "From canal.mq.dynamicTopic (same syntax).");
                            }
                        });
        boolean databaseHash =
                canal.take("canal.mq.database.hash").map(CanalSettings::isTrue).orElse(true);
        yaml.set(
                "route.database-hash",
                String.valueOf(databaseHash),
                "From canal.mq.database.hash (Canal's default: true).");
        Optional<String> hash = canal.take("canal.mq.partitionHash");
        hash.ifPresent(
                rules -> {
                    if (parses(
                            problems,
                            canal,
                            "canal.mq.partitionHash",
                            () ->
                                    PartitionRules.create(
                                            rules,
                                            true,
                                            Unmatched.PRIMARY_KEY,
                                            "canal.mq.partitionHash"))) {
                        yaml.set(
                                "route.partition-hash",
                                rules,
                                "From canal.mq.partitionHash (same syntax).");
                    }
                });
        if (hash.isEmpty()) {
            yaml.set(
                    "route.partition-unmatched",
                    Unmatched.ZERO.toString(),
                    "No canal.mq.partitionHash: Canal sends every message to partition "
                            + "canal.mq.partition (0). primary-key spreads each table by key.");
        } else {
            yaml.set(
                    "route.partition-unmatched",
                    Unmatched.PRIMARY_KEY.toString(),
                    "Canal sends tables no partitionHash rule matches to partition 0; Sluice"
                            + " spreads them by key. zero: Canal's behaviour.");
        }
        counts(canal, yaml, problems);
    }

    private static void counts(CanalSettings canal, SluiceYaml yaml, List<String> problems) {
        List<String> items = new ArrayList<>();
        canal.take("canal.mq.dynamicTopicPartitionNum")
                .ifPresent(
                        rules -> {
                            if (parses(
                                    problems,
                                    canal,
                                    "canal.mq.dynamicTopicPartitionNum",
                                    () ->
                                            PartitionCountRules.create(
                                                    rules, "canal.mq.dynamicTopicPartitionNum"))) {
                                items.add(rules);
                            }
                        });
        canal.take("canal.mq.partitionsNum")
                .ifPresent(
                        n -> {
                            if (n.matches("[1-9][0-9]*")) {
                                items.add(".*:" + n);
                            } else {
                                CanalImport.problem(
                                        problems,
                                        canal,
                                        "canal.mq.partitionsNum",
                                        "takes a positive partition count, but is '" + n + "'");
                            }
                        });
        if (!items.isEmpty()) {
            yaml.set(
                    "route.partition-counts",
                    String.join(",", items),
                    "From canal.mq.dynamicTopicPartitionNum, then canal.mq.partitionsNum for"
                            + " every other topic ('.*'): keys hash into as many partitions as"
                            + " under Canal.");
        }
    }

    /** Whether Sluice's parser takes the rules; a problem under {@code key} otherwise. */
    private static boolean parses(
            List<String> problems, CanalSettings canal, String key, Runnable parse) {
        try {
            parse.run();
            return true;
        } catch (IllegalArgumentException e) {
            // Sluice's parser was given the Canal key as the option's name.
            problems.add(canal.where(key) + ": " + e.getMessage());
            return false;
        }
    }
}
