package io.sluice.tools.bench;

import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import io.sluice.functions.encode.SinkMessage;
import io.sluice.functions.sink.KafkaClientProperties;
import io.sluice.functions.sink.KafkaSinkOptions;
import io.sluice.functions.source.binlog.BinlogColumn;
import io.sluice.functions.source.binlog.RowsEventDecoder;
import io.sluice.functions.table.ChangeColumn;
import io.sluice.it.server.DatabaseServer;
import io.sluice.it.server.KafkaServer;
import io.sluice.it.server.MariaDbServer;
import io.sluice.it.server.MySqlServer;
import io.sluice.it.server.RocketMqServer;
import io.sluice.it.server.ServerDirs;
import io.sluice.tools.job.EmbeddedJobs;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * {@code ./sluice bench}: the seeds' workloads end to end through Sluice on embedded MariaDB (or
 * MySQL 8.0, {@code --server mysql}) and Kafka (or RocketMQ, {@code --sink rocketmq}) and a local
 * MiniCluster, over a matrix of formats, topics, partitions and guarantees; side by side, on the
 * same backlog, with the source limit, the producer limit, the SQL door and the plain Flink SQL
 * pipeline (Kafka only: Flink SQL has no RocketMQ connector); and the stage funnel. Prints a
 * report; see docs/BENCHMARKS.md.
 */
public final class SluiceBench {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final int PRE_ENCODED_POOL = 20_000;
    private static final Map<String, String> GROUPED = Map.of("encode.group-rows", "event");
    private static final Map<String, String> UNMARKED = Map.of("encode.progress-markers", "off");
    private static final Map<String, String> MARKED =
            Map.of("encode.progress-markers", "checkpoint");

    /** Replica server ids: Sluice's runs, the Flink SQL tables', the bare binlog client's. */
    private static final int SLUICE_SERVER_IDS = 5400;

    private static final int FLINK_SQL_SERVER_IDS = 20_000;

    /** Which reader follows the binlog (MySqlSourceOptions.READER, in the source section). */
    private static final String SOURCE_READER = "source.reader";

    private static final int BINLOG_CLIENT_SERVER_IDS = 40_000;

    private final BenchArgs args;
    private final Workload workload;
    private int runs;

    /** The next job's parallelism where it differs from --parallelism; 0 otherwise. */
    private int runParallelism;

    private List<Variant> matrix;

    private DatabaseServer source;
    private KafkaServer kafka;
    private RocketMqServer rocketMq;
    private BenchCluster cluster;

    SluiceBench(BenchArgs args) {
        this.args = args;
        this.workload = Workload.named(args.workload, args.batchRows);
    }

    public static void main(String[] argv) throws Exception {
        BenchArgs args = BenchArgs.parseOrExit(argv);
        Report report = new SluiceBench(args).run();
        String text = report.render();
        System.out.println(text);
        if (args.out != null) {
            Path out = Paths.get(args.out);
            if (out.getParent() != null) {
                Files.createDirectories(out.getParent());
            }
            Files.writeString(out, text, StandardCharsets.UTF_8);
            say("report written to %s", out.toAbsolutePath());
        }
        System.exit(0);
    }

    /** Runs everything the arguments ask for; returns the report. */
    Report run() throws Exception {
        Report report = new Report(args);
        say(
                "starting %s, Kafka%s and a Flink MiniCluster (%d slots) ...",
                mySql() ? "MySQL" : "MariaDB",
                rocketMq() ? ", RocketMQ" : "",
                args.parallelism * 4);
        // Kafka runs in both cases: the SQL baselines and the job's config loader expect it.
        try (DatabaseServer db = mySql() ? MySqlServer.start() : MariaDbServer.start();
                KafkaServer broker = KafkaServer.start();
                RocketMqServer mq = rocketMq() ? RocketMqServer.start() : null;
                BenchCluster flink = new BenchCluster(args.parallelism * 4)) {
            this.source = db;
            this.kafka = broker;
            this.rocketMq = mq;
            this.cluster = flink;
            if (workload instanceof SnapshotWorkload) {
                snapshot(report);
            } else if (args.mode.equals("backlog")) {
                backlog(report);
            } else {
                live(report);
            }
        }
        return report;
    }

    private void backlog(Report report) throws Exception {
        Backlog backlog = loadBacklog(report);
        String database = backlog.database();
        BinlogPosition start = backlog.start();
        LoadStats stats = backlog.stats();

        // Unrecorded: the JVM's first jobs pay class loading and JIT for every later one.
        Variant base = matrix().get(0);
        say("warm-up runs (not reported) ...");
        sluice(base, database, start, stats, null, args.compare ? PRE_ENCODED_POOL : 0);
        List<SinkMessage> pool = lastKept;
        if (args.compare) {
            cut(Pipelines.Cut.CHANGE_EVENT, base, database, start, stats);
        }
        // After warm-up rounds the matrix's run is not a round of the side by side.
        boolean matrixRunCounts = !args.compare || args.warmup == 0;
        runMatrix(report, backlog, base, matrixRunCounts);
        if (!args.compare) {
            return;
        }
        // Interleaved rounds, so drift (JIT, other load on the machine) hits every pipeline alike.
        // Warm-up rounds (round <= 0) run every pipeline once more, into a report that is dropped:
        // each pipeline's own code (Flink SQL's planner and format, Sluice's operators) is compiled
        // before any round counts.
        for (int round = 1 - args.warmup; round <= args.repeat; round++) {
            Report target = round > 0 ? report : new Report(args);
            if (round > 0) {
                say("side by side and funnel, round %d of %d", round, args.repeat);
            } else {
                say("side by side and funnel, warm-up round (not counted)");
            }
            if (round > 1 || !matrixRunCounts) {
                target.sluice(sluice(base, database, start, stats, null, 0), base);
            }
            sideBySideRound(target, backlog, base, pool);
            funnelRound(target, backlog, base);
        }
        // Reordered into pipeline order, with the side-by-side runs as their stages.
        report.funnelInOrder(
                List.of(
                        "binlog receive",
                        "event parse",
                        SLUICE_DECODER,
                        SLUICE_READER,
                        Pipelines.Cut.DEBEZIUM_RECORD.label,
                        Pipelines.Cut.CHANGE_EVENT.label,
                        Pipelines.Cut.ROUTED.label,
                        Pipelines.Cut.ENCODED.label,
                        "sending (Sluice end to end)"));
    }

    /** The database, its backlog written once, and the binlog it takes; reported. */
    private Backlog loadBacklog(Report report) throws Exception {
        String database = createDatabase();
        BinlogPosition start = position();
        LoadStats stats = new LoadStats(false);
        say(
                "loading the %s backlog: %d row changes over %d connections ...",
                workload.name(), args.rows, args.connections);
        long loadMillis = loadRows(database, stats);
        BinlogPosition end = position();
        report.load(stats, loadMillis, start, end);
        say(
                "backlog: %d row changes in %d transactions (%.0f rows/s written), binlog %s to %s",
                stats.rows.get(),
                stats.transactions.get(),
                stats.rows.get() * 1000.0 / loadMillis,
                start,
                end);
        return new Backlog(database, start, end, stats);
    }

    /** Every variant of the matrix once over the backlog (and grouped, when asked). */
    private void runMatrix(Report report, Backlog backlog, Variant base, boolean matrixRunCounts)
            throws Exception {
        String database = backlog.database();
        BinlogPosition start = backlog.start();
        LoadStats stats = backlog.stats();
        for (Variant variant : matrix()) {
            RunResult result = sluice(variant, database, start, stats, null, 0);
            report.matrix(result);
            if (variant == base && matrixRunCounts) {
                report.sluice(result, variant);
            }
            if (args.groupRows) {
                report.matrix(sluice(variant, database, start, stats, null, 0, Map.of(), GROUPED));
            }
            if (args.progressMarkers) {
                // Side by side: the same reader's row count on both, markers skipped.
                report.matrix(sluice(variant, database, start, stats, null, 0, Map.of(), UNMARKED));
                report.matrix(sluice(variant, database, start, stats, null, 0, Map.of(), MARKED));
            }
        }
    }

    /** One round of the side by side: the cuts and the other pipelines on the same backlog. */
    private void sideBySideRound(
            Report target, Backlog backlog, Variant base, List<SinkMessage> pool) throws Exception {
        String database = backlog.database();
        BinlogPosition start = backlog.start();
        LoadStats stats = backlog.stats();
        if (!args.filters.isEmpty()) {
            target.filtered(sluice(base, database, start, stats, null, 0, args.filters, Map.of()));
        }
        // Right after Sluice, so both meet the same machine state.
        target.sqlDoor(sqlDoor(base, database, start, stats));
        target.sourceLimit(cut(Pipelines.Cut.CHANGE_EVENT, base, database, start, stats));
        target.sluiceReaderLimit(
                cut(Pipelines.Cut.CHANGE_EVENT, base, database, start, stats, "sluice"));
        target.producerLimit(producerLimit(base, stats, pool));
        // Flink SQL has no RocketMQ connector: no twin of (c) there.
        if (!rocketMq()) {
            target.flinkSql(flinkSql(base, database, start, stats));
        }
    }

    /** One round of the stage funnel: the pipeline cut after each stage. */
    private void funnelRound(Report target, Backlog backlog, Variant base) throws Exception {
        String database = backlog.database();
        BinlogPosition start = backlog.start();
        LoadStats stats = backlog.stats();
        BinlogPosition end = backlog.end();
        target.funnel(
                "binlog receive", binlog(start, end, stats, BinlogFunnel.Stage.RECEIVE, database));
        target.funnel("event parse", binlog(start, end, stats, BinlogFunnel.Stage.PARSE, database));
        target.funnel(
                SLUICE_DECODER, binlog(start, end, stats, BinlogFunnel.Stage.DECODE, database));
        target.funnel(
                SLUICE_READER, binlog(start, end, stats, BinlogFunnel.Stage.READER, database));
        target.funnel(
                Pipelines.Cut.DEBEZIUM_RECORD.label,
                cut(Pipelines.Cut.DEBEZIUM_RECORD, base, database, start, stats));
        target.funnel(
                Pipelines.Cut.ROUTED.label,
                cut(Pipelines.Cut.ROUTED, base, database, start, stats));
        target.funnel(
                Pipelines.Cut.ENCODED.label,
                cut(Pipelines.Cut.ENCODED, base, database, start, stats));
    }

    /** The backlog every run of a backlog benchmark reads. */
    private record Backlog(
            String database, BinlogPosition start, BinlogPosition end, LoadStats stats) {}

    /**
     * The snapshot workload: the tables filled, then each pipeline reads them from scratch with
     * startup {@code initial} into fresh topics: the server's own SELECT (the limit), Sluice at
     * parallelism 1 and 2, plain Flink SQL with one mysql-cdc source per table, and Sluice reading
     * the same rows from the binlog (the binlog-phase rate the snapshot is held against).
     */
    private void snapshot(Report report) throws Exception {
        String database = createDatabase();
        BinlogPosition start = position();
        LoadStats stats = new LoadStats(false);
        say("filling %d rows into %d tables ...", args.rows, workload.tables().size());
        long loadMillis = loadRows(database, stats);
        report.load(stats, loadMillis, start, position());
        Variant variant = matrix().get(0);
        if (args.warmup > 0) {
            // Unrecorded: class loading and JIT for the snapshot path of the runs that count.
            say("warm-up run (not reported) ...");
            snapshotSluice(variant, database, stats, 1);
        }
        for (int round = 1; round <= args.repeat; round++) {
            say("snapshot side by side, round %d of %d", round, args.repeat);
            report.snapshot(selectLimit(database, stats));
            report.snapshot(chunkReaderSpike(database, stats));
            report.snapshot(snapshotSluice(variant, database, stats, 1));
            report.snapshot(snapshotSluice(variant, database, stats, 2));
            // Parallelism 1: one mysql-cdc source per table (three readers), and one binlog reader.
            runParallelism = 1;
            try {
                if (!rocketMq()) {
                    report.snapshot(snapshotFlinkSql(variant, database, stats));
                }
                RunResult binlog = sluice(variant, database, start, stats, null, 0);
                binlog.pipeline = SnapshotSection.BINLOG;
                report.snapshot(binlog);
            } finally {
                runParallelism = 0;
            }
        }
    }

    /** Sluice's job with startup {@code initial} at {@code parallelism}. */
    private RunResult snapshotSluice(
            Variant variant, String database, LoadStats stats, int parallelism) throws Exception {
        String run = nextRun();
        List<String> topics = topics(run, variant.topics, variant.partitions);
        Configuration config = sluiceConfig(run, variant, database, null, topics);
        config.setString(SOURCE_READER, args.reader);
        if (args.chunkSize > 0) {
            config.setString("source.snapshot.chunk-size", Integer.toString(args.chunkSize));
        }
        String label = parallelism == 1 ? SnapshotSection.SLUICE_P1 : SnapshotSection.SLUICE_P2;
        say("run %s: %s, %s ...", run, label, variant);
        RunResult result = result(label, variant);
        try (SinkReader reader = reader(topics, variant.partitions, null, 0)) {
            runParallelism = parallelism;
            measure(
                    run,
                    result,
                    reader,
                    stats,
                    env -> Pipelines.sluice(env, config),
                    job -> {},
                    stats.rows::get);
        } finally {
            runParallelism = 0;
        }
        sayResult(run, result);
        return result;
    }

    /** Plain Flink SQL: one mysql-cdc source per table, startup 'initial', into Kafka. */
    private RunResult snapshotFlinkSql(Variant variant, String database, LoadStats stats)
            throws Exception {
        String run = nextRun();
        List<String> topics = topics(run, variant.topics, variant.partitions);
        Configuration config = sluiceConfig(run, variant, database, null, topics);
        Pipelines.SqlTarget target = sqlTarget(run, variant, database, null);
        target.chunkSize = args.chunkSize;
        say("run %s: plain Flink SQL snapshot (mysql-cdc -> kafka canal-json) ...", run);
        RunResult result = result(SnapshotSection.FLINK_SQL, variant);
        result.format = "canal-json";
        try (TopicReader reader =
                new TopicReader(kafkaClient(), topics, variant.partitions, null, 0)) {
            measure(
                    run,
                    result,
                    reader,
                    stats,
                    env -> Pipelines.flinkSql(env, config, target, workload.tables(), topics),
                    job -> {},
                    stats.rows::get);
        }
        sayResult(run, result);
        return result;
    }

    /**
     * The server's own speed: every table read by one streaming {@code SELECT *} over JDBC, each
     * value fetched as text, on one connection (one core of the client at most).
     */
    private RunResult selectLimit(String database, LoadStats stats) throws Exception {
        String run = nextRun();
        say("run %s: the server's SELECT over JDBC (streaming) ...", run);
        RunResult result = new RunResult();
        result.pipeline = SnapshotSection.SELECT;
        result.workload = workload.name();
        result.mode = "snapshot";
        long rows = 0;
        try (ResourceMeter meter = new ResourceMeter(source.process(), databaseProcess());
                Connection connection =
                        source.connect(database, source.cdcUser(), source.cdcPassword())) {
            meter.start();
            long started = System.nanoTime();
            for (Workload.Table table : workload.tables()) {
                rows += SelectLimit.read(connection, table.name, table.columns.size());
            }
            long nanos = System.nanoTime() - started;
            fill(result, meter.stop(), stats, rows);
            result.windowMillis = nanos / 1e6;
            result.sinceStartMillis = nanos / 1_000_000;
        }
        if (rows != stats.rows.get()) {
            throw new IllegalStateException(
                    "The SELECT read " + rows + " rows, but the load wrote " + stats.rows.get());
        }
        sayResult(run, result);
        return result;
    }

    /**
     * The spike of a Sluice-owned chunk reader ({@link ChunkReaderSpike}) over the same tables, on
     * the benchmark's own thread: its rows/s and that thread's CPU.
     */
    private RunResult chunkReaderSpike(String database, LoadStats stats) throws Exception {
        String run = nextRun();
        int chunk = args.chunkSize > 0 ? args.chunkSize : 8096;
        say(
                "run %s: Sluice chunk reader spike (JDBC chunks of %d + Sluice's renderers) ...",
                run, chunk);
        RunResult result = new RunResult();
        result.pipeline = SnapshotSection.SPIKE;
        result.workload = workload.name();
        result.mode = "snapshot";
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long rows = 0;
        try (ResourceMeter meter = new ResourceMeter(source.process(), databaseProcess());
                Connection connection =
                        source.connect(database, source.cdcUser(), source.cdcPassword())) {
            ChunkReaderSpike spike = new ChunkReaderSpike(connection, database, chunk);
            meter.start();
            long cpu = threads.getCurrentThreadCpuTime();
            long started = System.nanoTime();
            for (Workload.Table table : workload.tables()) {
                rows += spike.read(table.name);
            }
            long nanos = System.nanoTime() - started;
            result.readerStartCpuSeconds = 0;
            result.readerRowsCpuSeconds = (threads.getCurrentThreadCpuTime() - cpu) / 1e9;
            fill(result, meter.stop(), stats, spike.changes());
            result.windowMillis = nanos / 1e6;
            result.sinceStartMillis = nanos / 1_000_000;
        }
        if (rows != stats.rows.get()) {
            throw new IllegalStateException(
                    "The chunk reader spike read "
                            + rows
                            + " rows, but the load wrote "
                            + stats.rows.get());
        }
        sayResult(run, result);
        return result;
    }

    private void live(Report report) throws Exception {
        for (Variant variant : matrix()) {
            String database = createDatabase();
            BinlogPosition start = position();
            LoadStats stats = new LoadStats(true);
            report.matrix(sluice(variant, database, start, stats, database, 0));
        }
    }

    private List<SinkMessage> lastKept;

    /**
     * One Sluice run from {@code start}. In backlog mode the load is already written; in live mode
     * ({@code liveDatabase} set) the load runs once the job does.
     */
    private RunResult sluice(
            Variant variant,
            String database,
            BinlogPosition start,
            LoadStats stats,
            String liveDatabase,
            int keep)
            throws Exception {
        return sluice(variant, database, start, stats, liveDatabase, keep, Map.of(), Map.of());
    }

    /**
     * One Sluice run with {@code filters} (filter.* options) and {@code grouping}
     * (format.group-rows options, under which the reader counts rows in each message); see the
     * other overload.
     */
    private RunResult sluice(
            Variant variant,
            String database,
            BinlogPosition start,
            LoadStats stats,
            String liveDatabase,
            int keep,
            Map<String, String> filters,
            Map<String, String> grouping)
            throws Exception {
        String run = nextRun();
        List<String> topics = topics(run, variant.topics, variant.partitions);
        Configuration config = sluiceConfig(run, variant, database, start, topics);
        config.setString(SOURCE_READER, args.reader);
        filters.forEach(config::setString);
        grouping.forEach(config::setString);
        String markers = grouping.get("encode.progress-markers");
        String label =
                markers != null
                        ? "Sluice, progress markers " + markers
                        : !grouping.isEmpty()
                                ? "Sluice, rows grouped by event"
                                : filters.isEmpty() ? "Sluice" : "Sluice with filters";
        say("run %s: %s %s ...", run, label, variant);
        RunResult result = result(label, variant);
        try (SinkReader reader =
                reader(topics, variant.partitions, liveDatabase != null ? stats : null, keep)) {
            if (markers != null) {
                reader.countingRows(MessageRows.skippingMarkers(variant.format));
            } else if (!grouping.isEmpty()) {
                reader.countingRows(MessageRows.of(variant.format));
            }
            measure(
                    run,
                    result,
                    reader,
                    stats,
                    env -> Pipelines.sluice(env, config),
                    job -> {
                        if (liveDatabase != null) {
                            runLiveLoad(run, job, liveDatabase, stats);
                        }
                    },
                    stats.rows::get);
            if (liveDatabase != null) {
                result.latencies = stats.latencies();
                result.unreadInserts = stats.unreadInserts();
            }
            lastKept = reader.kept();
        }
        sayResult(run, result);
        return result;
    }

    /**
     * The SQL door on the same backlog and variant as a Sluice run: {@code sluice-mysql} to {@code
     * sluice-kafka}, the same source settings, topics, format, guarantee and parallelism.
     */
    private RunResult sqlDoor(
            Variant variant, String database, BinlogPosition start, LoadStats stats)
            throws Exception {
        String run = nextRun();
        List<String> topics = topics(run, variant.topics, variant.partitions);
        String script = sqlDoorScript(run, variant, database, start, topics);
        say("run %s: Sluice SQL door %s ...", run, variant);
        RunResult result = result("Sluice SQL door", variant);
        try (SinkReader reader = reader(topics, variant.partitions, null, 0)) {
            measure(
                    run,
                    result,
                    reader,
                    stats,
                    env -> Pipelines.sqlDoor(env, script),
                    job -> {},
                    stats.rows::get);
        }
        sayResult(run, result);
        return result;
    }

    /** The SQL script equivalent of {@link #sluiceConfig} for one run. */
    private String sqlDoorScript(
            String run,
            Variant variant,
            String database,
            BinlogPosition start,
            List<String> topics) {
        StringBuilder tables = new StringBuilder();
        for (Workload.Table table : workload.tables()) {
            if (tables.length() > 0) {
                tables.append(';');
            }
            tables.append(database).append('.').append(table.name);
        }
        int serverId = SLUICE_SERVER_IDS + 10 * runs;
        return "SET 'execution.checkpointing.interval' = '"
                + args.checkpointInterval.toMillis()
                + "ms';\n"
                + (rocketMq()
                        ? "SET 'execution.checkpointing.storage' = 'filesystem';\n"
                                + "SET 'execution.checkpointing.dir' = '"
                                + checkpoints(run)
                                + "';\n"
                        : "")
                + "SET 'pipeline.name' = 'bench-"
                + run
                + "';\n"
                + "CREATE TABLE binlog (change "
                + ChangeColumn.SQL_TYPE
                + ") WITH ('connector' = 'sluice-mysql', 'hostname' = '"
                + source.host()
                + "', 'port' = '"
                + source.port()
                + "', 'username' = '"
                + source.cdcUser()
                + "', 'password' = '"
                + source.cdcPassword()
                + "', 'tables' = '"
                + tables
                + "', 'server-id' = '"
                + serverId
                + "-"
                + (serverId + 8)
                + "', 'startup.mode' = 'binlog-position', 'startup.binlog-file' = '"
                + start.file
                + "', 'startup.binlog-position' = '"
                + start.position
                + "', 'reader' = '"
                + args.reader
                + "');\n"
                + "CREATE TABLE mq WITH ("
                + sqlDoorSink(run)
                + ", 'format' = '"
                + variant.format
                + (variant.format.equals("debezium-json")
                        ? "', 'format.debezium.tombstones' = 'false"
                        : "")
                + "', 'topic' = '"
                + topics.get(0)
                + "'"
                + (variant.topics > 1 ? ", 'topic-template' = '" + run + "-{table}'" : "")
                + ", 'delivery-guarantee' = '"
                + variant.guarantee
                + "') LIKE binlog (EXCLUDING ALL);\n"
                + "INSERT INTO mq SELECT change FROM binlog;\n";
    }

    /** The SQL door's sink connector and its broker options, as {@link #sluiceConfig} sets. */
    private String sqlDoorSink(String run) {
        String client = "bench-" + run + "-" + UUID.randomUUID();
        if (rocketMq()) {
            return "'connector' = 'sluice-rocketmq', 'name-server' = '"
                    + rocketMq.nameServerAddress()
                    + "', 'producer-group' = '"
                    + client
                    + "'";
        }
        return "'connector' = 'sluice-kafka', 'bootstrap-servers' = '"
                + kafka.bootstrapServers()
                + "', 'transactional-id-prefix' = '"
                + client
                + "'"
                + Pipelines.sqlProperties(args.producerProperties);
    }

    private RunResult cut(
            Pipelines.Cut cut,
            Variant variant,
            String database,
            BinlogPosition start,
            LoadStats stats)
            throws Exception {
        return cut(cut, variant, database, start, stats, "flink-cdc");
    }

    /** The pipeline cut after {@code cut}, its source read by {@code reader} (source.reader). */
    private RunResult cut(
            Pipelines.Cut cut,
            Variant variant,
            String database,
            BinlogPosition start,
            LoadStats stats,
            String reader)
            throws Exception {
        String run = nextRun();
        List<String> topics = topics(run, variant.topics, variant.partitions);
        Configuration config = sluiceConfig(run, variant, database, start, topics);
        config.setString(SOURCE_READER, reader);
        boolean sluiceReader = reader.equals("sluice");
        say(
                "run %s: pipeline cut after %s%s ...",
                run, cut.label, sluiceReader ? ", Sluice's binlog reader" : "");
        RunResult result =
                result(
                        "cut after " + cut.label + (sluiceReader ? ", Sluice's reader" : ""),
                        variant);
        long expected = stats.rows.get();
        CountingDiscardSink.Tally tally = CountingDiscardSink.tally(run, expected);
        try (ResourceMeter meter = new ResourceMeter(source.process(), databaseProcess())) {
            meter.start();
            long submitted = System.currentTimeMillis();
            JobID job = cluster.submit(envWith(env -> Pipelines.cut(env, config, cut, run)), run);
            try {
                long deadline = System.nanoTime() + timeout().toNanos();
                while (tally.count() < expected && System.nanoTime() < deadline) {
                    cluster.checkAlive(job);
                    Thread.sleep(20);
                }
                if (tally.count() < expected) {
                    throw new IllegalStateException(
                            "run " + run + ": " + tally.count() + " of " + expected + " rows");
                }
                result.tasks = cluster.taskTimes(job);
                fill(result, meter.stop(), stats, expected);
                result.windowMillis = tally.windowMillis();
                result.readerStartCpuSeconds = tally.readerCpuAtFirst();
                result.readerRowsCpuSeconds = tally.readerCpuAtDone() - tally.readerCpuAtFirst();
                result.sinceStartMillis = tally.doneMillis() - submitted;
            } finally {
                cluster.cancel(job);
                CountingDiscardSink.forget(run);
            }
            result.messages = tally.count();
        }
        sayResult(run, result);
        return result;
    }

    private RunResult producerLimit(Variant variant, LoadStats stats, List<SinkMessage> pool)
            throws Exception {
        String run = nextRun();
        List<String> topics = topics(run, 1, variant.partitions);
        Configuration config = sluiceConfig(run, variant, "unused", null, topics);
        List<SinkMessage> messages = new ArrayList<>();
        for (SinkMessage kept : pool) {
            messages.add(
                    new SinkMessage(
                            topics.get(0),
                            kept.partition(),
                            kept.key(),
                            kept.value(),
                            kept.timestamp(),
                            kept.tag()));
        }
        say("run %s: producer limit, %d pre-encoded messages ...", run, messages.size());
        RunResult result = result("producer limit", variant);
        result.topics = 1;
        long expected = stats.rows.get();
        try (SinkReader reader = reader(topics, variant.partitions, null, 0)) {
            measure(
                    run,
                    result,
                    reader,
                    stats,
                    env -> Pipelines.producerLimit(env, config, run, messages, expected),
                    job -> {},
                    () -> expected);
        }
        sayResult(run, result);
        return result;
    }

    private RunResult flinkSql(
            Variant variant, String database, BinlogPosition start, LoadStats stats)
            throws Exception {
        String run = nextRun();
        List<String> topics = topics(run, variant.topics, variant.partitions);
        Configuration config = sluiceConfig(run, variant, database, start, topics);
        Pipelines.SqlTarget target = sqlTarget(run, variant, database, start);
        say("run %s: plain Flink SQL (mysql-cdc -> kafka canal-json) ...", run);
        RunResult result = result("Flink SQL canal-json", variant);
        result.format = "canal-json";
        // canal-json writes an UPDATE as two messages: the old row's DELETE and the new INSERT.
        long expected = stats.rows.get() + stats.updates.get();
        try (TopicReader reader =
                new TopicReader(kafkaClient(), topics, variant.partitions, null, 0)) {
            measure(
                    run,
                    result,
                    reader,
                    stats,
                    env -> Pipelines.flinkSql(env, config, target, workload.tables(), topics),
                    job -> {},
                    () -> expected);
        }
        sayResult(run, result);
        return result;
    }

    /** Where plain Flink SQL reads, from {@code start} or (null) with startup 'initial'. */
    private Pipelines.SqlTarget sqlTarget(
            String run, Variant variant, String database, BinlogPosition start) {
        Pipelines.SqlTarget target = new Pipelines.SqlTarget();
        target.host = source.host();
        target.port = source.port();
        target.user = source.cdcUser();
        target.password = source.cdcPassword();
        target.database = database;
        target.serverId = FLINK_SQL_SERVER_IDS + 100 * runs;
        if (start != null) {
            target.binlogFile = start.file;
            target.binlogPosition = start.position;
        }
        target.bootstrapServers = kafka.bootstrapServers();
        target.guarantee = variant.guarantee;
        target.transactionalIdPrefix = "bench-" + run + "-" + UUID.randomUUID();
        target.producerProperties = args.producerProperties;
        return target;
    }

    /** What a measured run does while its job runs, before its messages are awaited. */
    private interface WhileRunning {
        void accept(JobID job) throws Exception;
    }

    /**
     * Submits {@code pipeline}, lets {@code whileRunning} act, waits until {@code reader} has read
     * {@code expectedMessages} (asked once {@code whileRunning} is done), and fills {@code result}:
     * resources, busy times, the window from the first append to the last readable message, and the
     * counts. Exactly once, the count read must be exactly the count expected.
     */
    private void measure(
            String run,
            RunResult result,
            SinkReader reader,
            LoadStats stats,
            Consumer<StreamExecutionEnvironment> pipeline,
            WhileRunning whileRunning,
            LongSupplier expectedMessages)
            throws Exception {
        try (ResourceMeter meter = new ResourceMeter(source.process(), databaseProcess())) {
            meter.start();
            long submitted = System.currentTimeMillis();
            JobID job = cluster.submit(envWith(pipeline), run);
            try {
                whileRunning.accept(job);
                long expected = expectedMessages.getAsLong();
                awaitMessages(reader, expected, job);
                result.tasks = cluster.taskTimes(job);
                fill(result, meter.stop(), stats, expected);
                result.windowMillis = reader.doneMillis() - reader.firstAppendMillis();
                result.tailMillis = reader.doneMillis() - reader.lastAppendMillis();
                result.sinceStartMillis = reader.doneMillis() - submitted;
            } finally {
                cluster.cancel(job);
            }
            reader.close();
            result.messages = reader.messages();
            result.bytes = reader.bytes();
            if (reader instanceof TopicReader topicReader) {
                result.storedBytes = kafka.storedBytes(topicReader.topics());
            }
            if (result.guarantee.equals("exactly-once")
                    && reader.count() != expectedMessages.getAsLong()) {
                throw new IllegalStateException(
                        "run "
                                + run
                                + ": "
                                + result.pipeline
                                + " delivered "
                                + reader.count()
                                + " messages (rows, when grouped) exactly once, expected "
                                + expectedMessages.getAsLong());
            }
        }
    }

    private void runLiveLoad(String run, JobID job, String liveDatabase, LoadStats stats)
            throws Exception {
        cluster.awaitRunning(job, Duration.ofMinutes(2));
        // The binlog reader connects a moment after the tasks run.
        Thread.sleep(2_000);
        say("run %s: live load for %s over %d connections", run, args.duration, args.connections);
        LoadDriver.run(
                source.jdbcUrl(liveDatabase),
                source.rootUser(),
                source.rootPassword(),
                workload,
                args.connections,
                Long.MAX_VALUE,
                args.duration.toMillis(),
                stats);
    }

    /** The funnel stage of Sluice's own binlog decoder (issue 25), not yet in the job. */
    private static final String SLUICE_DECODER = "client + Sluice decoder → ChangeEvent";

    /** The funnel stage of Sluice's own binlog reader (issue 25), not yet in the job. */
    private static final String SLUICE_READER = "Sluice binlog reader → ChangeEvent";

    private static final Map<BinlogFunnel.Stage, String> BINLOG_PIPELINES =
            Map.of(
                    BinlogFunnel.Stage.RECEIVE, "binlog client, bodies skipped",
                    BinlogFunnel.Stage.PARSE, "binlog client, events parsed",
                    BinlogFunnel.Stage.DECODE, "binlog client, Sluice's decoder",
                    BinlogFunnel.Stage.READER, "Sluice's binlog reader");

    private RunResult binlog(
            BinlogPosition start,
            BinlogPosition end,
            LoadStats stats,
            BinlogFunnel.Stage stage,
            String database)
            throws Exception {
        String run = nextRun();
        say("run %s: %s ...", run, BINLOG_PIPELINES.get(stage));
        RunResult result = new RunResult();
        result.pipeline = BINLOG_PIPELINES.get(stage);
        result.workload = workload.name();
        result.mode = args.mode;
        try (ResourceMeter meter = new ResourceMeter(source.process(), databaseProcess())) {
            meter.start();
            long started = System.currentTimeMillis();
            BinlogFunnel.Pass pass =
                    BinlogFunnel.read(
                            source.host(),
                            source.port(),
                            source.cdcUser(),
                            source.cdcPassword(),
                            BINLOG_CLIENT_SERVER_IDS + runs,
                            start,
                            end,
                            stage,
                            (db, table) -> db.equals(database) ? decoder(db, table) : null,
                            timeout());
            // The decoder's output is its changes, counted like a cut's (checked equal to the
            // rows).
            fill(
                    result,
                    meter.stop(),
                    stats,
                    stage == BinlogFunnel.Stage.DECODE || stage == BinlogFunnel.Stage.READER
                            ? pass.rows
                            : pass.events);
            if (stage != BinlogFunnel.Stage.RECEIVE && pass.rows != stats.rows.get()) {
                throw new IllegalStateException(
                        "The binlog client parsed "
                                + pass.rows
                                + " rows, but the load wrote "
                                + stats.rows.get());
            }
            result.windowMillis = pass.windowMillis;
            result.readerStartCpuSeconds = pass.readerStartCpuSeconds;
            result.readerRowsCpuSeconds = pass.readerRowsCpuSeconds;
            result.sinceStartMillis = System.currentTimeMillis() - started;
        }
        sayResult(run, result);
        return result;
    }

    /** Sluice's decoder of one table, with its columns as the server states them now. */
    private RowsEventDecoder decoder(String database, String table) {
        try (Connection connection = source.connect(database)) {
            return RowsEventDecoder.of(
                    database,
                    table,
                    BinlogColumn.read(connection, database, table),
                    ZoneOffset.UTC);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot read the columns of " + table, e);
        }
    }

    private void awaitMessages(SinkReader reader, long expected, JobID job) throws Exception {
        long deadline = System.nanoTime() + timeout().toNanos();
        while (!reader.await(expected, Duration.ofMillis(500))) {
            cluster.checkAlive(job);
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(
                        "Only " + reader.count() + " of " + expected + " messages became readable");
            }
        }
    }

    private void fill(
            RunResult result, ResourceMeter.Resources resources, LoadStats stats, long messages) {
        result.resources = resources;
        result.rows = stats.rows.get();
        result.transactions = stats.transactions.get();
        result.messages = messages;
    }

    private RunResult result(String pipeline, Variant variant) {
        RunResult result = new RunResult();
        result.pipeline = pipeline;
        result.workload = workload.name();
        result.mode = args.mode;
        result.sink = args.sink;
        result.format = variant.format;
        result.topics = variant.topics;
        result.partitions = variant.partitions;
        result.guarantee = variant.guarantee;
        return result;
    }

    private Configuration sluiceConfig(
            String run,
            Variant variant,
            String database,
            BinlogPosition start,
            List<String> topics) {
        List<String> overrides = new ArrayList<>();
        overrides.add("encode.format=" + variant.format);
        if (variant.format.equals("debezium-json")) {
            // One message per row, as the other formats: the readers count rows.
            overrides.add("encode.format.debezium.tombstones=false");
        }
        overrides.add("sink.kafka.delivery-guarantee=" + variant.guarantee);
        overrides.add("sink.kafka.transactional-id-prefix=bench-" + run + "-" + UUID.randomUUID());
        overrides.add("job.checkpoint-interval=" + args.checkpointInterval.toMillis() + "ms");
        overrides.add("job.name=bench-" + run);
        args.producerProperties.forEach(
                (key, value) ->
                        overrides.add(
                                "sink.kafka."
                                        + KafkaSinkOptions.PROPERTIES_PREFIX
                                        + key
                                        + "="
                                        + value));
        if (rocketMq()) {
            overrides.add("sink.type=rocketmq");
            overrides.add("sink.rocketmq.name-server=" + rocketMq.nameServerAddress());
            overrides.add("sink.rocketmq.delivery-guarantee=" + variant.guarantee);
            overrides.add("sink.rocketmq.producer-group=bench-" + run + "-" + UUID.randomUUID());
            overrides.add("job.checkpoint-storage=" + checkpoints(run));
        }
        int serverId = SLUICE_SERVER_IDS + 10 * runs;
        overrides.add("source.server-id=" + serverId + "-" + (serverId + 8));
        if (start != null) {
            overrides.add("source.startup.mode=binlog-position");
            overrides.add("source.startup.binlog-file=" + start.file);
            overrides.add("source.startup.binlog-position=" + start.position);
        }
        if (variant.topics > 1) {
            overrides.add("route.topic-template=" + run + "-{table}");
        }
        StringBuilder tables = new StringBuilder();
        for (Workload.Table table : workload.tables()) {
            if (tables.length() > 0) {
                tables.append(';');
            }
            tables.append(database).append(".").append(table.name);
        }
        return EmbeddedJobs.config(
                source, kafka, tables.toString(), topics.get(0), overrides.toArray(new String[0]));
    }

    /**
     * A fresh checkpoint directory: the RocketMQ sink's write-ahead log keeps a checkpoint
     * interval's messages in state, more than the JobManager's 5 MiB memory storage takes.
     */
    private static String checkpoints(String run) {
        return ServerDirs.fresh("checkpoints-" + run).toUri().toString();
    }

    /**
     * Creates the run's topics: Kafka topics with LogAppendTime (append times come from the
     * broker), or RocketMQ topics with {@code partitions} queues (store times always do).
     */
    private List<String> topics(String run, int count, int partitions) {
        List<String> topics = new ArrayList<>();
        if (count == 1) {
            topics.add(run);
        } else {
            for (Workload.Table table : workload.tables()) {
                topics.add(run + "-" + table.name);
            }
        }
        for (String topic : topics) {
            if (rocketMq()) {
                rocketMq.createTopic(topic, partitions);
            } else {
                kafka.createTopic(
                        topic, partitions, Map.of("message.timestamp.type", "LogAppendTime"));
            }
        }
        return topics;
    }

    /** A reader of Sluice's topics on the configured sink, keeping the first {@code keep}. */
    private SinkReader reader(List<String> topics, int partitions, LoadStats commits, int keep)
            throws Exception {
        if (rocketMq()) {
            return new RocketMqReader(
                    rocketMq.nameServerAddress(), topics, partitions, commits, keep);
        }
        return new TopicReader(kafkaClient(), topics, partitions, commits, keep);
    }

    /** The readers' Kafka client settings, derived as the job's are from sink.properties.*. */
    private Properties kafkaClient() {
        Configuration config = new Configuration();
        config.setString("sink.kafka.bootstrap-servers", kafka.bootstrapServers());
        args.producerProperties.forEach(
                (key, value) ->
                        config.setString(
                                "sink.kafka." + KafkaSinkOptions.PROPERTIES_PREFIX + key, value));
        return KafkaClientProperties.common(config);
    }

    private boolean rocketMq() {
        return args.sink.equals("rocketmq");
    }

    private boolean mySql() {
        return args.server.equals("mysql");
    }

    /** The source server's process, as the CPU table names it. */
    private String databaseProcess() {
        return mySql() ? ResourceMeter.MYSQL_DATABASE : ResourceMeter.DATABASE;
    }

    private StreamExecutionEnvironment envWith(Consumer<StreamExecutionEnvironment> build) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(runParallelism > 0 ? runParallelism : args.parallelism);
        build.accept(env);
        return env;
    }

    private String createDatabase() {
        String database = source.createDatabase("bench", null);
        source.execute(database, workload.ddl());
        return database;
    }

    private BinlogPosition position() throws Exception {
        try (Connection connection = source.connect(null)) {
            return BinlogPosition.current(connection);
        }
    }

    private List<Variant> matrix() {
        if (matrix != null) {
            return matrix;
        }
        List<Variant> variants = new ArrayList<>();
        for (String guarantee : args.guarantees) {
            for (String format : args.formats) {
                for (int topics : args.topics) {
                    for (int partitions : args.partitions) {
                        variants.add(new Variant(format, topics, partitions, guarantee));
                    }
                }
            }
        }
        matrix = List.copyOf(variants);
        return matrix;
    }

    private String nextRun() {
        runs++;
        return "r" + runs + "-" + UUID.randomUUID().toString().substring(0, 6);
    }

    private Duration timeout() {
        return Duration.ofSeconds(Math.max(180, args.rows / 500));
    }

    private static void sayResult(String run, RunResult result) {
        say(
                "run %s: %s: %d rows in %.0f ms (%.0f rows/s; last output readable %.0f ms after"
                        + " it was stored; %.1f s from start)",
                run,
                result.pipeline,
                result.rows,
                result.windowMillis,
                result.rowsPerSecond(),
                result.tailMillis,
                result.sinceStartMillis / 1000.0);
        if (!Double.isNaN(result.readerRowsCpuSeconds)) {
            say(
                    "run %s: binlog thread: %.3f CPU-s before the first row, %.2f CPU-s per M rows"
                            + " from the first row to the last",
                    run,
                    result.readerStartCpuSeconds,
                    result.cpuSecondsPerMillionRows(result.readerRowsCpuSeconds));
        }
    }

    static void say(String format, Object... values) {
        System.out.println(
                LocalTime.now().format(CLOCK) + " sluice bench: " + String.format(format, values));
        System.out.flush();
    }

    /** One cell of the matrix. */
    static final class Variant {
        final String format;
        final int topics;
        final int partitions;
        final String guarantee;

        Variant(String format, int topics, int partitions, String guarantee) {
            this.format = format;
            this.topics = topics;
            this.partitions = partitions;
            this.guarantee = guarantee;
        }

        @Override
        public String toString() {
            return format
                    + ", "
                    + topics
                    + " topic(s) x "
                    + partitions
                    + " partition(s), "
                    + guarantee;
        }
    }

    /** Writes {@code args.rows} row changes of the workload into {@code database}; its millis. */
    private long loadRows(String database, LoadStats stats) throws Exception {
        return LoadDriver.run(
                source.jdbcUrl(database),
                source.rootUser(),
                source.rootPassword(),
                workload,
                args.connections,
                args.rows,
                Long.MAX_VALUE / 4,
                stats);
    }
}
