package io.sluice.tools.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The benchmark harness at a tiny size: every section of the report is there and every pipeline
 * delivered exactly the rows the load wrote. Speeds are never asserted.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SluiceBenchITCase {

    @Test
    void backlogReportIsCompleteWithExactCounts() throws Exception {
        BenchArgs args =
                BenchArgs.parse(
                        new String[] {
                            "--rows", "2000",
                            "--formats", "flat",
                            "--topics", "2",
                            "--partitions", "3",
                            "--guarantees", "exactly-once",
                            "--repeat", "1"
                        });

        Report report = new SluiceBench(args).run();

        List<RunResult> matrix = report.matrixResults();
        assertThat(matrix).hasSize(1);
        RunResult sluice = matrix.get(0);
        assertThat(sluice.rows).isGreaterThanOrEqualTo(2000);
        assertThat(sluice.messages).as("exactly once: one message per row").isEqualTo(sluice.rows);
        assertThat(sluice.topics).isEqualTo(2);
        assertThat(sluice.partitions).isEqualTo(3);
        assertThat(sluice.windowMillis).isPositive();
        // The last message was stored before it became readable, inside the window.
        assertThat(sluice.tailMillis).isNotNegative().isLessThan(sluice.windowMillis);
        assertThat(sluice.resources.pipelineCpuSeconds()).isPositive();
        assertThat(sluice.resources.peakHeapMiB()).isPositive();
        assertThat(sluice.tasks).isNotEmpty();
        assertThat(sluice.tasks).allSatisfy(task -> assertThat(task.busyMillis).isNotNegative());
        // The binlog reader (Sluice's, the default), the database and the JVM's own threads are
        // each counted.
        assertThat(sluice.resources.cpuByGroup().keySet())
                .anyMatch(group -> group.startsWith(Report.SLUICE_READER_THREAD))
                .contains(ResourceMeter.DATABASE, "JVM internal (GC, JIT)");
        assertThat(sluice.resources.busiestThread().cpuSeconds()).isPositive();
        assertThat(sluice.resources.cpuByGroup())
                .containsKey(sluice.resources.busiestThread().group());

        // The default warm-up round ran every pipeline once more and counted none of it; the
        // matrix's run came before it, so the side by side has a Sluice run of its own.
        for (String pipeline :
                List.of(
                        "Sluice",
                        "Sluice SQL door",
                        "cut after conversion to ChangeEvent",
                        "cut after conversion to ChangeEvent, Sluice's reader",
                        "producer limit",
                        "Flink SQL canal-json",
                        "cut after routing")) {
            assertThat(report.roundsCounted(pipeline)).as(pipeline).isEqualTo(1);
        }
        assertThat(report.sluice()).isNotSameAs(sluice);
        assertThat(report.sluice().messages).isEqualTo(sluice.rows);

        assertThat(report.sourceLimit().messages).isEqualTo(sluice.rows);
        // (a2): the same cut with Sluice's binlog reader, whose thread did the reading.
        RunResult sluiceReader = report.sluiceReaderLimit();
        assertThat(sluiceReader.messages).isEqualTo(sluice.rows);
        assertThat(sluiceReader.resources.cpuByGroup().keySet())
                .anyMatch(group -> group.startsWith("sluice-binlog-reader-"));
        assertThat(report.producerLimitResult().messages).isEqualTo(sluice.rows);
        // A bounded job: its tasks have finished by the time the last message is read.
        assertThat(report.producerLimitResult().tasks)
                .isNotEmpty()
                .allSatisfy(task -> assertThat(task.busyMillis).isNotNegative());
        RunResult sqlDoor = report.sqlDoorResult();
        assertThat(sqlDoor.messages).as("SQL door: one message per row").isEqualTo(sluice.rows);
        assertThat(sqlDoor.windowMillis).isPositive();
        assertThat(sqlDoor.tailMillis).isNotNegative().isLessThan(sqlDoor.windowMillis);
        // canal-json writes an UPDATE as a DELETE and an INSERT message.
        RunResult sql = report.flinkSqlResult();
        assertThat(sql.messages).isGreaterThan(sql.rows);
        // Uncompressed batches take more room than their records' bytes; Sluice's sink compresses
        // (LZ4 by default), so the broker stores fewer bytes than its records hold.
        assertThat(sql.storedBytes).isGreaterThan(sql.bytes);
        assertThat(sluice.storedBytes).isPositive().isLessThan(sluice.bytes);

        Map<String, RunResult> funnel = report.funnelResults();
        assertThat(funnel.keySet())
                .containsExactly(
                        "binlog receive",
                        "event parse",
                        "client + Sluice decoder → ChangeEvent",
                        "Sluice binlog reader → ChangeEvent",
                        "Debezium record",
                        "conversion to ChangeEvent",
                        "routing",
                        "encoding",
                        "sending (Sluice end to end)");
        for (Map.Entry<String, RunResult> stage : funnel.entrySet()) {
            assertThat(stage.getValue().windowMillis).as(stage.getKey()).isPositive();
            if (!stage.getKey().startsWith("binlog") && !stage.getKey().equals("event parse")) {
                assertThat(stage.getValue().messages).as(stage.getKey()).isEqualTo(sluice.rows);
            }
        }

        String text = report.render();
        assertThat(text)
                .contains("| mixed-dml | backlog | kafka | canal-flat | 2 × 3 | exactly-once |")
                .contains("(a) source limit")
                .contains("(a2) source limit, Sluice reader")
                .contains("Reader of (d) Sluice and (e) the SQL door: source.reader sluice")
                .containsPattern(
                        "Sluice's reader ≥ 3× Flink CDC's source limit: (not )?met \\(\\(a2\\) ÷"
                                + " \\(a\\) = \\d+\\.\\d\\d×")
                .contains("(b) producer limit")
                .contains("(c) plain Flink SQL")
                .contains("(e) Sluice SQL door")
                .contains("SQL door within 10% of Sluice's YAML pipeline")
                .contains("Stage funnel")
                .contains("Busy time per task")
                .contains("CPU by thread group")
                .contains("Ceilings")
                .contains("Without the final commit's wait")
                .contains("Best of 1 interleaved rounds, after 1 warm-up round(s) not counted.")
                .containsPattern(
                        "Round by round .*: Sluice ÷ source limit \\d+% \\(median \\d+%\\);"
                                + " Sluice ÷ Flink SQL \\d+\\.\\d\\d× \\(median")
                .doesNotContain("NaN");
    }

    @Test
    void snapshotWorkloadReadsEveryRowOnceInEveryPipeline() throws Exception {
        BenchArgs args =
                BenchArgs.parse(
                        new String[] {
                            "--workload", "snapshot",
                            "--rows", "3000",
                            "--batch-rows", "100",
                            "--chunk-size", "400",
                            "--formats", "flat",
                            "--topics", "1",
                            "--partitions", "1",
                            "--guarantees", "exactly-once",
                            "--repeat", "1",
                            "--warmup", "0"
                        });

        Report report = new SluiceBench(args).run();

        List<RunResult> runs = report.snapshotResults();
        assertThat(runs)
                .extracting(r -> r.pipeline)
                .containsExactly(
                        SnapshotSection.SELECT,
                        SnapshotSection.SPIKE,
                        SnapshotSection.SLUICE_P1,
                        SnapshotSection.SLUICE_P2,
                        SnapshotSection.FLINK_SQL,
                        SnapshotSection.BINLOG);
        long rows = runs.get(0).rows;
        assertThat(rows).isGreaterThanOrEqualTo(3000);
        for (RunResult run : runs) {
            // Exactly once: measure() already failed any run whose count differs.
            assertThat(run.messages).as(run.pipeline).isEqualTo(rows);
            assertThat(run.windowMillis).as(run.pipeline).isPositive();
        }
        for (RunResult job : runs.subList(2, runs.size())) {
            assertThat(job.tasks).as(job.pipeline).isNotEmpty();
        }
        assertThat(runs.get(1).readerRowsCpuSeconds).isPositive();

        assertThat(report.render())
                .contains("### Initial snapshot side by side (" + rows + " rows in three tables;")
                .containsPattern("parallelism 1 ≥ 10× plain Flink SQL: (not )?met")
                .containsPattern("parallelism 1 ≥ ½ of the binlog-phase rate: (not )?met")
                .containsPattern("chunk reader spike: [\\d,]+ rows/s")
                .contains("Busy time per task")
                .contains("CPU by thread group")
                .doesNotContain("NaN");
    }

    @Test
    void rocketMqBacklogCountsExactlyWithItsOwnBaselines() throws Exception {
        BenchArgs args =
                BenchArgs.parse(
                        new String[] {
                            "--sink", "rocketmq",
                            "--rows", "2000",
                            "--formats", "flat",
                            "--topics", "2",
                            "--partitions", "3",
                            "--guarantees", "exactly-once",
                            "--repeat", "1",
                            "--warmup", "0",
                            "--reader", "flink-cdc"
                        });

        Report report = new SluiceBench(args).run();

        List<RunResult> matrix = report.matrixResults();
        assertThat(matrix).hasSize(1);
        RunResult sluice = matrix.get(0);
        // Without warm-up rounds the matrix's run is the side by side's first round.
        assertThat(report.sluice()).isSameAs(sluice);
        assertThat(report.roundsCounted("Sluice")).isEqualTo(1);
        assertThat(sluice.sink).isEqualTo("rocketmq");
        assertThat(sluice.rows).isGreaterThanOrEqualTo(2000);
        assertThat(sluice.messages).as("exactly once: one message per row").isEqualTo(sluice.rows);
        assertThat(sluice.bytes).isPositive();
        assertThat(sluice.windowMillis).isPositive();
        assertThat(sluice.tasks).isNotEmpty();
        // --reader flink-cdc: (d) and (e) read with Flink CDC's binlog client, exactly once too.
        assertThat(sluice.resources.cpuByGroup().keySet())
                .anyMatch(group -> group.startsWith(Report.FLINK_CDC_BINLOG_THREAD))
                .noneMatch(group -> group.startsWith(Report.SLUICE_READER_THREAD));
        assertThat(report.sqlDoorResult().resources.cpuByGroup().keySet())
                .anyMatch(group -> group.startsWith(Report.FLINK_CDC_BINLOG_THREAD))
                .noneMatch(group -> group.startsWith(Report.SLUICE_READER_THREAD));
        assertThat(report.sluiceReaderLimit().messages).isEqualTo(sluice.rows);

        // The producer limit and the SQL door write to RocketMQ too, each message once; plain
        // Flink SQL has no RocketMQ connector.
        assertThat(report.sourceLimit().messages).isEqualTo(sluice.rows);
        assertThat(report.producerLimitResult().messages).isEqualTo(sluice.rows);
        assertThat(report.producerLimitResult().sink).isEqualTo("rocketmq");
        assertThat(report.sqlDoorResult().messages).isEqualTo(sluice.rows);
        assertThat(report.sqlDoorResult().sink).isEqualTo("rocketmq");
        assertThat(report.flinkSqlResult()).isNull();
        Map<String, RunResult> funnel = report.funnelResults();
        assertThat(funnel.keySet())
                .containsExactly(
                        "binlog receive",
                        "event parse",
                        "client + Sluice decoder → ChangeEvent",
                        "Sluice binlog reader → ChangeEvent",
                        "Debezium record",
                        "conversion to ChangeEvent",
                        "routing",
                        "encoding",
                        "sending (Sluice end to end)");
        assertThat(funnel.get("encoding").messages).isEqualTo(sluice.rows);

        String text = report.render();
        assertThat(text)
                .contains("| mixed-dml | backlog | rocketmq | canal-flat | 2 × 3 | exactly-once |")
                .contains("RocketMQ 5.3.3")
                .contains("Reader of (d) Sluice and (e) the SQL door: source.reader flink-cdc")
                .contains("(a) source limit")
                .contains("(d) Sluice")
                .contains("(b) producer limit: pre-encoded → RocketMqSink")
                .contains("(c) plain Flink SQL: no RocketMQ connector | n/a")
                .contains("(e) Sluice SQL door: sluice-mysql → sluice-rocketmq")
                .doesNotContain("KafkaSink")
                .contains("Stage funnel")
                .doesNotContain("NaN");
    }

    @Test
    void rocketMqLiveModeMeasuresLatencyOfEveryInsert() throws Exception {
        BenchArgs args =
                BenchArgs.parse(
                        new String[] {
                            "--sink", "rocketmq",
                            "--mode", "live",
                            "--workload", "batch-insert",
                            "--batch-rows", "50",
                            "--duration", "3s",
                            "--connections", "2",
                            "--formats", "binary",
                            "--topics", "1",
                            "--partitions", "3",
                            "--guarantees", "exactly-once"
                        });

        Report report = new SluiceBench(args).run();

        RunResult live = report.matrixResults().get(0);
        assertThat(live.rows).isPositive();
        assertThat(live.messages).isEqualTo(live.rows);
        assertThat(live.unreadInserts).as("inserts committed and never read").isEmpty();
        assertThat(live.latencies).as("one sample per inserted row").hasSize((int) live.rows);
        assertThat(report.render()).contains("| batch-insert | live | rocketmq | canal-binary |");
    }

    @Test
    void mySqlBacklogCountsExactly() throws Exception {
        BenchArgs args =
                BenchArgs.parse(
                        new String[] {
                            "--server", "mysql",
                            "--rows", "2000",
                            "--formats", "flat",
                            "--topics", "1",
                            "--partitions", "3",
                            "--guarantees", "exactly-once",
                            "--no-compare"
                        });

        Report report = new SluiceBench(args).run();

        RunResult sluice = report.matrixResults().get(0);
        assertThat(sluice.rows).isGreaterThanOrEqualTo(2000);
        assertThat(sluice.messages).as("exactly once: one message per row").isEqualTo(sluice.rows);
        // The CPU table counts MySQL's server process, not MariaDB's.
        assertThat(sluice.resources.cpuByGroup())
                .containsKey(ResourceMeter.MYSQL_DATABASE)
                .doesNotContainKey(ResourceMeter.DATABASE);
        assertThat(report.render())
                .contains("MySQL 8.0.31")
                .contains("| mixed-dml | backlog | kafka | canal-flat | 1 × 3 | exactly-once |");
    }

    @Test
    void liveModeMeasuresLatencyOfEveryInsert() throws Exception {
        BenchArgs args =
                BenchArgs.parse(
                        new String[] {
                            "--mode", "live",
                            "--workload", "batch-insert",
                            "--batch-rows", "50",
                            "--duration", "3s",
                            "--connections", "2",
                            "--formats", "binary",
                            "--topics", "1",
                            "--partitions", "1",
                            "--guarantees", "at-least-once"
                        });

        Report report = new SluiceBench(args).run();

        RunResult live = report.matrixResults().get(0);
        assertThat(live.rows).isPositive();
        assertThat(live.messages).isGreaterThanOrEqualTo(live.rows);
        assertThat(live.unreadInserts).as("inserts committed and never read").isEmpty();
        assertThat(live.latencies).as("one sample per inserted row").hasSize((int) live.rows);
        assertThat(report.render()).contains("| batch-insert | live | kafka | canal-binary |");
    }

    @Test
    void badArgumentsNameTheFlagAndTheValue() {
        assertThatThrownBy(() -> BenchArgs.parse(new String[] {"--workload", "oltp"}))
                .hasMessageContaining("'--workload'")
                .hasMessageContaining("mixed-dml, batch-insert, wide-row")
                .hasMessageContaining("'oltp'");
        assertThatThrownBy(() -> BenchArgs.parse(new String[] {"--partitions", "0"}))
                .hasMessageContaining("'--partitions'")
                .hasMessageContaining("0");
    }
}
