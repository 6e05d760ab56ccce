package io.sluice.tools.bench;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.data.Struct;
import org.apache.flink.cdc.connectors.shaded.org.apache.kafka.connect.source.SourceRecord;
import org.apache.flink.cdc.debezium.DebeziumDeserializationSchema;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.util.Collector;

import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.order.PartitionOwnerPartitioner;
import io.sluice.functions.route.SelfKeySelector;
import io.sluice.functions.sink.SinkFactory;
import io.sluice.functions.sink.SinkOptions;
import io.sluice.functions.sink.SinkType;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.types.SinkMessageTypeInfo;
import io.sluice.job.SluiceJob;
import io.sluice.job.sql.SqlScriptRunner;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pipelines the benchmark runs: Sluice itself, the same pipeline cut after each stage (into a
 * counting discard sink), the producer limit and the plain Flink SQL pipeline. The cut variants are
 * built here from Sluice's public pieces, in SluiceJob's order, so the job stays untouched.
 */
final class Pipelines {

    /** Where the pipeline is cut, in pipeline order. */
    enum Cut {
        DEBEZIUM_RECORD("Debezium record"),
        CHANGE_EVENT("conversion to ChangeEvent"),
        ROUTED("routing"),
        ENCODED("encoding");

        final String label;

        Cut(String label) {
            this.label = label;
        }
    }

    private static final Map<String, SinkMessage[]> PRE_ENCODED = new ConcurrentHashMap<>();

    private Pipelines() {}

    /** The real job, as production builds it, with the configured sink ({@code sink.type}). */
    static void sluice(StreamExecutionEnvironment env, Configuration config) {
        SluiceJob.configure(env, config);
        new SluiceJob(
                        MySqlSourceFactory.changeEventSource(config),
                        SinkFactory.sink(config),
                        SinkFactory.partitionCounts(config),
                        config)
                .build(env);
    }

    /**
     * Sluice's SQL door on the same backlog: {@code script} (a {@code sluice-mysql} table and a
     * {@code sluice-kafka} table, one INSERT) planned by the SQL runner's own code, with the
     * runner's job settings (object reuse, no Kryo) under the script's SETs.
     */
    static void sqlDoor(StreamExecutionEnvironment env, String script) {
        SqlScriptRunner runner = SqlScriptRunner.parse(script, Map.of(), Map.of());
        env.configure(runner.configuration());
        runner.plan(StreamTableEnvironment.create(env)).attachAsDataStream();
    }

    /** The pipeline up to {@code cut}, into a counting discard sink for {@code run}. */
    static void cut(StreamExecutionEnvironment env, Configuration config, Cut cut, String run) {
        SluiceJob.configure(env, config);
        if (cut == Cut.DEBEZIUM_RECORD) {
            env.fromSource(
                            MySqlSourceFactory.source(config, new RowCountingSchema()),
                            WatermarkStrategy.noWatermarks(),
                            "MySQL CDC source (Debezium records)")
                    .uid(SluiceJob.SOURCE_UID)
                    .name("MySQL CDC source (Debezium records)")
                    .sinkTo(new CountingDiscardSink<>(run))
                    .uid("discard")
                    .name("Discard");
            return;
        }
        // The real job's stages, cut after the one measured.
        SluiceJob job =
                new SluiceJob(
                        MySqlSourceFactory.changeEventSource(config),
                        SinkFactory.sink(config),
                        SinkFactory.partitionCounts(config),
                        config);
        DataStream<?> out;
        if (cut == Cut.ENCODED) {
            out = job.encoded(env);
        } else if (cut == Cut.ROUTED) {
            out = job.routed(env);
        } else {
            out =
                    env.fromSource(
                                    MySqlSourceFactory.changeEventSource(config),
                                    WatermarkStrategy.noWatermarks(),
                                    "MySQL CDC source")
                            .uid(SluiceJob.SOURCE_UID)
                            .name("MySQL CDC source");
        }
        out.sinkTo(new CountingDiscardSink<>(run)).uid("discard").name("Discard");
    }

    /**
     * The producer limit: {@code count} pre-encoded messages, cycled from {@code messages}, from a
     * generator straight into Sluice's sink for the configured broker. RocketMQ's sink takes each
     * queue from one subtask, as the job's partition owners hand it over.
     */
    static void producerLimit(
            StreamExecutionEnvironment env,
            Configuration config,
            String run,
            List<SinkMessage> messages,
            long count) {
        SluiceJob.configure(env, config);
        PRE_ENCODED.put(run, messages.toArray(new SinkMessage[0]));
        SinkType type = PipelineSections.of(config).sink().get(SinkOptions.TYPE);
        DataStream<SinkMessage> encoded =
                env.fromSequence(0, count - 1)
                        .uid("generator")
                        .name("Pre-encoded messages")
                        .map(new PreEncoded(run))
                        .returns(new SinkMessageTypeInfo())
                        .uid("pre-encoded")
                        .name("Pick pre-encoded message");
        if (type == SinkType.ROCKETMQ) {
            Partitioner<SinkMessage> owners =
                    (m, n) -> PartitionOwnerPartitioner.ownerOf(m.topic(), m.partition(), n);
            encoded = encoded.partitionCustom(owners, new SelfKeySelector<>());
        }
        encoded.sinkTo(SinkFactory.sink(config)).uid(type.uid()).name(type.operatorName());
    }

    /**
     * What users write without Sluice: one {@code mysql-cdc} table and one {@code kafka} table with
     * {@code 'format' = 'canal-json'} per captured table, keyed by the primary key, one INSERT
     * each, in one statement set.
     */
    static void flinkSql(
            StreamExecutionEnvironment env,
            Configuration config,
            SqlTarget target,
            List<Workload.Table> tables,
            List<String> topics) {
        SluiceJob.configure(env, config);
        StreamTableEnvironment sql = StreamTableEnvironment.create(env);
        StreamStatementSet statements = sql.createStatementSet();
        for (int t = 0; t < tables.size(); t++) {
            Workload.Table table = tables.get(t);
            String columns = flinkColumns(table);
            sql.executeSql(
                    "CREATE TABLE src_"
                            + table.name
                            + " ("
                            + columns
                            + ", PRIMARY KEY (id) NOT ENFORCED) WITH ("
                            + "'connector' = 'mysql-cdc', "
                            + "'hostname' = '"
                            + target.host
                            + "', 'port' = '"
                            + target.port
                            + "', 'username' = '"
                            + target.user
                            + "', 'password' = '"
                            + target.password
                            + "', 'database-name' = '"
                            + target.database
                            + "', 'table-name' = '"
                            + table.name
                            + "', 'server-id' = '"
                            + (target.serverId + 10 * t)
                            + "-"
                            + (target.serverId + 10 * t + 8)
                            + "', 'server-time-zone' = 'UTC', "
                            + startup(target)
                            + ")");
            sql.executeSql(
                    "CREATE TABLE dst_"
                            + table.name
                            + " ("
                            + columns
                            + ") WITH ("
                            + "'connector' = 'kafka', "
                            + "'topic' = '"
                            + topics.get(t % topics.size())
                            + "', 'properties.bootstrap.servers' = '"
                            + target.bootstrapServers
                            + "', 'format' = 'canal-json', "
                            + "'key.format' = 'json', 'key.fields' = 'id', "
                            + "'value.fields-include' = 'ALL', "
                            + "'sink.delivery-guarantee' = '"
                            + target.guarantee
                            + "', 'sink.transactional-id-prefix' = '"
                            + target.transactionalIdPrefix
                            + "-"
                            + table.name
                            + "', 'properties.transaction.timeout.ms' = '600000'"
                            + sqlProperties(target.producerProperties)
                            + ")");
            statements.addInsertSql(
                    "INSERT INTO dst_" + table.name + " SELECT * FROM src_" + table.name);
        }
        statements.attachAsDataStream();
    }

    private static String flinkColumns(Workload.Table table) {
        StringBuilder columns = new StringBuilder();
        for (Workload.Column column : table.columns) {
            if (columns.length() > 0) {
                columns.append(", ");
            }
            columns.append('`').append(column.name).append("` ").append(column.flinkType);
        }
        return columns.toString();
    }

    /** The mysql-cdc table's startup options: the initial snapshot, or a binlog position. */
    private static String startup(SqlTarget target) {
        if (target.binlogFile == null) {
            return "'scan.startup.mode' = 'initial'"
                    + (target.chunkSize > 0
                            ? ", 'scan.incremental.snapshot.chunk.size' = '"
                                    + target.chunkSize
                                    + "'"
                            : "");
        }
        return "'scan.startup.mode' = 'specific-offset', "
                + "'scan.startup.specific-offset.file' = '"
                + target.binlogFile
                + "', 'scan.startup.specific-offset.pos' = '"
                + target.binlogPosition
                + "'";
    }

    /** Where the Flink SQL baseline reads and writes. */
    static final class SqlTarget {
        String host;
        int port;
        String user;
        String password;
        String database;
        int serverId;

        /** Null: startup 'initial', the tables' snapshot first. */
        String binlogFile;

        long binlogPosition;

        /** Rows per snapshot chunk; 0 for mysql-cdc's default. */
        int chunkSize;

        String bootstrapServers;
        String guarantee;
        String transactionalIdPrefix;
        Map<String, String> producerProperties = Map.of();
    }

    /** {@code properties} as {@code , 'properties.KEY' = 'VALUE'} table options. */
    static String sqlProperties(Map<String, String> properties) {
        StringBuilder options = new StringBuilder();
        properties.forEach(
                (key, value) ->
                        options.append(", 'properties.")
                                .append(key)
                                .append("' = '")
                                .append(value)
                                .append('\''));
        return options.toString();
    }

    /** Emits 1 per row change, so the cut right after Debezium keeps its record building. */
    static final class RowCountingSchema implements DebeziumDeserializationSchema<Integer> {
        private static final long serialVersionUID = 1L;

        @Override
        public void deserialize(SourceRecord record, Collector<Integer> out) {
            Object value = record.value();
            if (value instanceof Struct
                    && ((Struct) value).schema().field("op") != null
                    && ((Struct) value).get("op") != null) {
                out.collect(1);
            }
        }

        @Override
        public TypeInformation<Integer> getProducedType() {
            return Types.INT;
        }
    }

    /** Maps a sequence number to one of the run's pre-encoded messages. */
    static final class PreEncoded implements MapFunction<Long, SinkMessage> {
        private static final long serialVersionUID = 1L;
        private final String run;
        private transient SinkMessage[] messages;

        PreEncoded(String run) {
            this.run = run;
        }

        @Override
        public SinkMessage map(Long sequence) {
            if (messages == null) {
                messages = PRE_ENCODED.get(run);
            }
            return messages[(int) (sequence % messages.length)];
        }
    }
}
