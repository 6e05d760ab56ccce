package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.api.transformations.SourceTransformation;
import org.apache.flink.streaming.runtime.partitioner.ForwardPartitioner;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses, when a statement set is translated, a Sluice sink table fed by more than one change
 * table: each change table's watermarks count its own statements, so rows of two of them in one
 * sink would let a DDL statement overtake rows or fall behind them. Two INSERTs into one sink table
 * count as one sink here. Kept per translation ({@link Translation}). Also tells whether a sink's
 * rows come forward from their source subtasks ({@link #forwardFromSources}).
 */
@Internal
final class SinkSources {

    private final Map<ObjectIdentifier, String> sinks = new HashMap<>();

    /** Records the change table {@code rows} come from for {@code sink}, or fails. */
    void check(DataStream<?> rows, ObjectIdentifier sink, String connector) {
        Set<String> sources = changeTables(rows.getTransformation());
        if (sources.size() > 1) {
            throw mixed(sink, connector, String.join("', '", sources));
        }
        if (sources.isEmpty()) {
            return;
        }
        String source = sources.iterator().next();
        synchronized (sinks) {
            String earlier = sinks.putIfAbsent(sink, source);
            if (earlier != null && !earlier.equals(source)) {
                throw mixed(sink, connector, earlier + "', '" + source);
            }
        }
    }

    private static ValidationException mixed(
            ObjectIdentifier sink, String connector, String sources) {
        return new ValidationException(
                String.format(
                        "Table '%s' ('connector' = '%s') is written with the changes of more than"
                                + " one change table: '%s'. A Sluice sink table takes the rows of"
                                + " one change table, so that each DDL statement keeps its place"
                                + " among its table's rows: write each change table to a sink"
                                + " table of its own, or read one change table for all of them"
                                + " (a catalog's '<database>.changes' reads every table of the"
                                + " database)",
                        sink.asSummaryString(), connector, sources));
    }

    /**
     * Whether every record of {@code rows} comes forward from a source subtask of the same index:
     * no exchange and one parallelism from the sources to {@code rows}. Then each source subtask's
     * changes take one path, as in the YAML pipeline's chained shape.
     */
    static boolean forwardFromSources(DataStream<?> rows) {
        int parallelism = rows.getParallelism();
        for (Transformation<?> t : upstream(rows.getTransformation())) {
            if (t.getParallelism() != parallelism
                    || (t instanceof PartitionTransformation
                            && !(((PartitionTransformation<?>) t).getPartitioner()
                                    instanceof ForwardPartitioner))) {
                return false;
            }
        }
        return true;
    }

    /** The change tables whose sources feed {@code output}, by name. */
    private static Set<String> changeTables(Transformation<?> output) {
        Set<String> tables = new TreeSet<>();
        for (Transformation<?> t : upstream(output)) {
            if (t instanceof SourceTransformation
                    && t.getName().startsWith(MySqlTableSource.SOURCE_NAME + " ")) {
                tables.add(t.getName().substring(MySqlTableSource.SOURCE_NAME.length() + 1));
            }
        }
        return tables;
    }

    /** {@code output} and every transformation that feeds it. */
    private static Set<Transformation<?>> upstream(Transformation<?> output) {
        Set<Transformation<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Transformation<?>> todo = new ArrayDeque<>();
        todo.add(output);
        while (!todo.isEmpty()) {
            Transformation<?> t = todo.poll();
            if (seen.add(t)) {
                todo.addAll(t.getInputs());
            }
        }
        return seen;
    }
}
