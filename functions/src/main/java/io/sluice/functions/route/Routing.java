package io.sluice.functions.route;

import org.apache.flink.annotation.Internal;

import io.sluice.serializers.event.ChangeEvent;

import java.io.Serializable;

/**
 * Where a change goes, from the routing rules: its topic ({@link TopicRouter}), a row's partition
 * (the table's {@link PartitionRules} hash over the topic's partition count) and how many
 * partitions, from 0, a statement reaches ({@link DdlPartitions}). The one routing implementation
 * of both doors: the YAML pipeline's route operator and the SQL sink tables' encoder. Shipped with
 * the operator; each subtask opens its own {@link Routes}.
 */
@Internal
public final class Routing implements Serializable {

    private static final long serialVersionUID = 1L;

    private final TopicRouter router;
    private final PartitionRules partitions;
    private final DdlPartitions ddlPartitions;
    private final PartitionCounts.Factory countsFactory;

    public Routing(
            TopicRouter router,
            PartitionRules partitions,
            DdlPartitions ddlPartitions,
            PartitionCounts.Factory countsFactory) {
        this.router = router;
        this.partitions = partitions;
        this.ddlPartitions = ddlPartitions;
        this.countsFactory = countsFactory;
    }

    /** The routes of one subtask, with its own partition counts; close them with the subtask. */
    public Routes open() {
        return new Routes(countsFactory.create());
    }

    /** A subtask's routing: the rules and the partition counts it looked up. */
    public final class Routes implements AutoCloseable {

        private final PartitionCounts counts;

        private Routes(PartitionCounts counts) {
            this.counts = counts;
        }

        /** The topic the rules give {@code change}'s table. */
        public String topicOf(ChangeEvent change) {
            return router.topicOf(change.schema());
        }

        /** The partition of {@code topic} the rules give row {@code change}. */
        public int partitionOf(ChangeEvent change, String topic) {
            return PartitionRules.partition(
                    partitions.hasherFor(change.schema()).hash(change.data()),
                    counts.countOf(topic));
        }

        /** How many partitions of {@code topic}, from 0, a statement is written to. */
        public int statementPartitions(String topic) {
            return ddlPartitions.of(counts.countOf(topic));
        }

        @Override
        public void close() {
            counts.close();
        }
    }
}
