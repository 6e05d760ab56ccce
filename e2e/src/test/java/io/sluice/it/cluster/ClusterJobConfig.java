package io.sluice.it.cluster;

import io.sluice.it.server.MariaDbServer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The YAML configuration of a Sluice job on a test cluster: MariaDB's table {@code counters} of one
 * database to one Kafka topic, the password from the cluster's environment ({@code
 * ${env:SLUICE_SOURCE_PASSWORD}}, never in a file), a checkpoint every {@code checkpointInterval}.
 */
final class ClusterJobConfig {

    static final String PASSWORD_ENV = "SLUICE_SOURCE_PASSWORD";

    private ClusterJobConfig() {}

    /**
     * Writes the file; {@code parallelism} is source, route, encode and sink; {@code sinkLines} are
     * more lines of the sink section (e.g. {@code rocketmq.name-server: ...}).
     */
    static Path write(
            Path file,
            String name,
            String checkpointInterval,
            MariaDbServer mariaDb,
            String database,
            String topic,
            String bootstrapServers,
            String transactionalIds,
            int[] parallelism,
            List<String> sinkLines)
            throws IOException {
        List<String> yaml =
                new ArrayList<>(
                        List.of(
                                "job:",
                                "  name: " + name,
                                "  checkpoint-interval: " + checkpointInterval,
                                "source:",
                                "  hostname: " + mariaDb.host(),
                                "  port: " + mariaDb.port(),
                                "  username: " + MariaDbServer.CDC_USER,
                                "  password: ${env:" + PASSWORD_ENV + "}",
                                "  tables:",
                                "    - " + database + ".counters",
                                "route:",
                                "  default-topic: " + topic,
                                "parallelism:",
                                "  source: " + parallelism[0],
                                "  route: " + parallelism[1],
                                "  encode: " + parallelism[2],
                                "  sink: " + parallelism[3],
                                "sink:",
                                "  kafka.bootstrap-servers: " + bootstrapServers,
                                "  transactional-id-prefix: " + transactionalIds));
        sinkLines.forEach(line -> yaml.add("  " + line));
        yaml.add("");
        Files.writeString(file, String.join("\n", yaml), StandardCharsets.UTF_8);
        return file;
    }
}
