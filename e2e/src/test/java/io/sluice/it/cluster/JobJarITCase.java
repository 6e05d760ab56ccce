package io.sluice.it.cluster;

import io.sluice.tools.cluster.ClusterCommand;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shaded job jar is what a Flink cluster expects of a user jar: Sluice and its connectors in,
 * their factory registrations merged, Jackson relocated, and nothing the cluster provides (Flink,
 * Flink's shaded libraries, logging). Runs after {@code package}, on the jar the build made.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class JobJarITCase {

    private static final List<String> entries = new ArrayList<>();
    private static Manifest manifest;
    private static String tableFactories;

    @BeforeAll
    static void readJar() throws IOException {
        try (JarFile jar = new JarFile(BuildOutputs.jobJar().toFile())) {
            manifest = jar.getManifest();
            jar.stream().map(ZipEntry::getName).forEach(entries::add);
            ZipEntry services =
                    jar.getEntry("META-INF/services/org.apache.flink.table.factories.Factory");
            assertThat(services).as("table factory registrations").isNotNull();
            try (InputStream in = jar.getInputStream(services)) {
                tableFactories = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        }
    }

    @Test
    void runsSluiceJobByDefaultAndHoldsEveryModuleAndBothEntryPoints() {
        assertThat(manifest.getMainAttributes().getValue("Main-Class"))
                .isEqualTo(ClusterCommand.ENTRY_CLASS);
        assertThat(entries)
                .contains(
                        "io/sluice/job/SluiceJob.class",
                        // The SQL door's entry point, chosen per run (entryClass, flink run -c).
                        "io/sluice/job/SluiceSqlRunner.class",
                        "io/sluice/job/sql/SqlScriptRunner.class",
                        "io/sluice/job/config/JobConfigLoader.class",
                        "io/sluice/functions/sink/KafkaSinkFactory.class",
                        "io/sluice/functions/source/MySqlSourceFactory.class",
                        "io/sluice/serializers/event/ChangeEvent.class");
    }

    @Test
    void connectorsFactoryRegistrationsAreMergedNotOverwritten() {
        assertThat(tableFactories)
                // Sluice's own SQL connectors (sluice-mysql, sluice-kafka) beside the connectors'.
                .contains("io.sluice.functions.table.MySqlDynamicTableFactory")
                .contains("io.sluice.functions.table.KafkaDynamicTableFactory")
                .contains("org.apache.flink.cdc.connectors.mysql.table.MySqlTableSourceFactory")
                .contains(
                        "org.apache.flink.streaming.connectors.kafka.table.KafkaDynamicTableFactory")
                .contains("io.sluice.functions.table.MySqlDynamicTableFactory")
                .contains("io.sluice.functions.table.KafkaDynamicTableFactory")
                .contains("io.sluice.functions.table.RocketMqDynamicTableFactory");
    }

    @Test
    void leavesOutWhatTheClusterProvides() {
        assertThat(entries)
                .noneMatch(e -> e.startsWith("org/apache/flink/runtime/"))
                .noneMatch(e -> e.startsWith("org/apache/flink/streaming/api/environment/"))
                .noneMatch(e -> e.startsWith("org/apache/flink/api/common/"))
                .noneMatch(e -> e.startsWith("org/apache/flink/shaded/"))
                .noneMatch(e -> e.startsWith("org/slf4j/"))
                .noneMatch(e -> e.startsWith("org/apache/logging/"))
                .noneMatch(e -> e.startsWith("org/apache/log4j/"));
    }

    @Test
    void jacksonIsRelocated() {
        assertThat(entries).noneMatch(e -> e.startsWith("com/fasterxml/"));
        assertThat(entries)
                .contains("io/sluice/shaded/com/fasterxml/jackson/databind/ObjectMapper.class");
    }
}
