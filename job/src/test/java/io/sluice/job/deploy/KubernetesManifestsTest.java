package io.sluice.job.deploy;

import org.apache.flink.configuration.Configuration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.sluice.job.config.JobConfigLoader;
import io.sluice.job.config.JobOptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every manifest in {@code k8s/} validates against the Flink Kubernetes Operator's own CRD schemas,
 * and the manifests agree with each other, the Dockerfile and the job: Secret and ConfigMap names
 * and keys, volume claims, the jar path, the config file path, the entry class, the Prometheus
 * port, and the job configuration itself loads.
 */
class KubernetesManifestsTest {

    private static final Path K8S = Path.of("..", "k8s");
    private static final YAMLMapper YAML = new YAMLMapper();
    private static final Pattern ENV_REF = Pattern.compile("\\$\\{env:([A-Za-z_][A-Za-z0-9_]*)}");

    @Test
    void everyFlinkResourceValidatesAgainstTheOperatorsCrdSchema() throws IOException {
        Map<String, JsonNode> flink = flinkResources(manifests());
        assertThat(flink.values())
                .extracting(m -> m.path("kind").asText())
                .contains("FlinkDeployment", "FlinkSessionJob");
        flink.forEach(
                (file, manifest) ->
                        assertThat(CrdSchemas.validate(manifest))
                                .as("errors of %s", file)
                                .isEmpty());
    }

    @Test
    void aMisspelledFieldIsRejected() throws IOException {
        ObjectNode manifest = (ObjectNode) manifests().get("flink-deployment.yaml").deepCopy();
        ObjectNode job = (ObjectNode) manifest.path("spec").path("job");
        job.set("upgradMode", job.remove("upgradeMode"));
        assertThat(CrdSchemas.validate(manifest)).anyMatch(e -> e.contains("upgradMode"));
    }

    @Test
    void aValueOutsideTheSchemaIsRejected() throws IOException {
        ObjectNode manifest = (ObjectNode) manifests().get("flink-deployment.yaml").deepCopy();
        ((ObjectNode) manifest.path("spec").path("job")).put("upgradeMode", "snapshot");
        assertThat(CrdSchemas.validate(manifest)).anyMatch(e -> e.contains("upgradeMode"));

        ObjectNode session = (ObjectNode) manifests().get("flink-session-job.yaml").deepCopy();
        ((ObjectNode) session.path("spec").path("job")).put("parallelism", "two");
        assertThat(CrdSchemas.validate(session)).anyMatch(e -> e.contains("parallelism"));
    }

    @Test
    void manifestsAgreeWithEachOtherTheImageAndTheJob() throws IOException {
        assertThat(crossReferenceProblems(manifests(), dockerfile())).isEmpty();
    }

    @Test
    void aBrokenCrossReferenceIsFound() throws IOException {
        Map<String, JsonNode> tampered = manifests();
        JsonNode env =
                tampered.get("flink-deployment.yaml")
                        .path("spec")
                        .path("podTemplate")
                        .path("spec")
                        .path("containers")
                        .get(0)
                        .path("env")
                        .get(1);
        ((ObjectNode) env.path("valueFrom").path("secretKeyRef")).put("name", "sluice-database");
        ((ObjectNode) tampered.get("flink-deployment.yaml").path("spec").path("job"))
                .put("jarURI", "local:///opt/flink/usrlib/sluice.jar");
        ((ObjectNode) tampered.get("flink-session-job.yaml").path("spec"))
                .put("deploymentName", "sluice-sessions");

        assertThat(crossReferenceProblems(tampered, dockerfile()))
                .anyMatch(p -> p.contains("Secret 'sluice-database'"))
                .anyMatch(p -> p.contains("/opt/flink/usrlib/sluice.jar"))
                .anyMatch(p -> p.contains("'sluice-sessions'"));
    }

    @Test
    void theGrafanaDashboardUsesSluicesMetricNames() throws IOException {
        JsonNode dashboard =
                new ObjectMapper().readTree(K8S.resolve("grafana-dashboard.json").toFile());
        List<String> expressions =
                dashboard.findValues("expr").stream()
                        .map(JsonNode::asText)
                        .collect(Collectors.toList());
        String all = String.join("\n", expressions);
        for (String name :
                List.of(
                        "sluice_rowsIn",
                        "sluice_transactions",
                        "sluice_transactionsPerSecond",
                        "sluice_lagMs",
                        "sluice_snapshotRows",
                        "sluice_snapshotting",
                        "sluice_millisSinceProgress",
                        "sluice_messagesOut",
                        "sluice_bytesOut",
                        "sluice_topic_messages",
                        "sluice_topic_bytes")) {
            assertThat(all)
                    .as("the dashboard's queries")
                    .contains("flink_taskmanager_job_task_operator_" + name);
        }
        Matcher metric = Pattern.compile("flink_[a-zA-Z_]+").matcher(all);
        Set<String> used = new TreeSet<>();
        while (metric.find()) {
            used.add(metric.group());
        }
        assertThat(used)
                .as("every metric the dashboard queries is a Flink or Sluice metric")
                .allMatch(
                        m ->
                                m.startsWith("flink_taskmanager_job_task_operator_")
                                        || m.startsWith("flink_jobmanager_job_")
                                        || m.startsWith("flink_taskmanager_Status_"));
    }

    /** Everything that names something defined elsewhere, checked; empty when all agree. */
    static List<String> crossReferenceProblems(Map<String, JsonNode> manifests, String dockerfile) {
        List<String> problems = new ArrayList<>();
        Map<String, JsonNode> byKindAndName = new HashMap<>();
        manifests
                .values()
                .forEach(
                        m ->
                                byKindAndName.put(
                                        m.path("kind").asText()
                                                + "/"
                                                + m.path("metadata").path("name").asText(),
                                        m));
        String jarInImage = copyDestination(dockerfile, "sluice-job-");
        Path confInImage = Path.of(copyDestination(dockerfile, "conf/"));

        for (Map.Entry<String, JsonNode> entry : flinkResources(manifests).entrySet()) {
            String file = entry.getKey();
            JsonNode spec = entry.getValue().path("spec");
            JsonNode job = spec.path("job");
            String kind = entry.getValue().path("kind").asText();

            JsonNode deployment = entry.getValue();
            if ("FlinkSessionJob".equals(kind)) {
                deployment =
                        byKindAndName.get(
                                "FlinkDeployment/" + spec.path("deploymentName").asText());
                if (deployment == null) {
                    problems.add(
                            file
                                    + ": deploymentName '"
                                    + spec.path("deploymentName").asText()
                                    + "' names no FlinkDeployment");
                    continue;
                }
                if (deployment.path("spec").has("job")) {
                    problems.add(
                            file
                                    + ": "
                                    + spec.path("deploymentName").asText()
                                    + " is not a session cluster");
                }
                if (job.path("jarURI").asText().startsWith("local:")) {
                    problems.add(
                            file
                                    + ": a session job's jarURI must be fetchable by the operator, not local:");
                }
            } else if (!job.isMissingNode()) {
                String jar = job.path("jarURI").asText();
                if (!jar.equals("local://" + jarInImage)) {
                    problems.add(
                            file
                                    + ": jarURI "
                                    + jar
                                    + " is not the image's jar local://"
                                    + jarInImage);
                }
            }
            if (!job.isMissingNode()) {
                try {
                    Class.forName(job.path("entryClass").asText());
                } catch (ClassNotFoundException e) {
                    problems.add(
                            file
                                    + ": entryClass "
                                    + job.path("entryClass").asText()
                                    + " does not exist");
                }
            }

            JsonNode pod = deployment.path("spec").path("podTemplate");
            JsonNode container = pod.path("spec").path("containers").get(0);
            Map<String, String> env = new LinkedHashMap<>();
            for (JsonNode variable : container.path("env")) {
                JsonNode ref = variable.path("valueFrom").path("secretKeyRef");
                Optional<JsonNode> secret =
                        Optional.ofNullable(
                                byKindAndName.get("Secret/" + ref.path("name").asText()));
                if (secret.isEmpty()) {
                    problems.add(
                            file + ": Secret '" + ref.path("name").asText() + "' does not exist");
                    continue;
                }
                JsonNode value = secret.get().path("stringData").path(ref.path("key").asText());
                if (value.isMissingNode()) {
                    problems.add(
                            file
                                    + ": Secret '"
                                    + ref.path("name").asText()
                                    + "' has no key '"
                                    + ref.path("key").asText()
                                    + "'");
                    continue;
                }
                env.put(variable.path("name").asText(), value.asText());
            }

            // Volumes: ConfigMaps with their keys, claims.
            Map<String, Path> configFiles = new HashMap<>();
            Map<String, String> configMapOfVolume = new HashMap<>();
            for (JsonNode volume : pod.path("spec").path("volumes")) {
                JsonNode configMap = volume.path("configMap");
                if (!configMap.isMissingNode()) {
                    JsonNode map =
                            byKindAndName.get("ConfigMap/" + configMap.path("name").asText());
                    if (map == null) {
                        problems.add(
                                file
                                        + ": ConfigMap '"
                                        + configMap.path("name").asText()
                                        + "' does not exist");
                        continue;
                    }
                    configMapOfVolume.put(
                            volume.path("name").asText(), configMap.path("name").asText());
                    for (JsonNode item : configMap.path("items")) {
                        if (!map.path("data").has(item.path("key").asText())) {
                            problems.add(
                                    file
                                            + ": ConfigMap '"
                                            + configMap.path("name").asText()
                                            + "' has no key '"
                                            + item.path("key").asText()
                                            + "'");
                        }
                    }
                }
                JsonNode claim = volume.path("persistentVolumeClaim");
                if (!claim.isMissingNode()
                        && !byKindAndName.containsKey(
                                "PersistentVolumeClaim/" + claim.path("claimName").asText())) {
                    problems.add(
                            file
                                    + ": PersistentVolumeClaim '"
                                    + claim.path("claimName").asText()
                                    + "' does not exist");
                }
            }
            for (JsonNode mount : container.path("volumeMounts")) {
                String configMap = configMapOfVolume.get(mount.path("name").asText());
                if (configMap == null) {
                    continue;
                }
                for (JsonNode volume : pod.path("spec").path("volumes")) {
                    if (volume.path("name").asText().equals(mount.path("name").asText())) {
                        for (JsonNode item : volume.path("configMap").path("items")) {
                            configFiles.put(
                                    configMap + "/" + item.path("key").asText(),
                                    Path.of(
                                            mount.path("mountPath").asText(),
                                            item.path("path").asText()));
                        }
                    }
                }
                if (!Path.of(mount.path("mountPath").asText()).equals(confInImage)) {
                    problems.add(
                            file
                                    + ": the ConfigMap is mounted at "
                                    + mount.path("mountPath").asText()
                                    + ", not over the image's conf dir "
                                    + confInImage);
                }
            }

            // The job's --config is a mounted ConfigMap key, and that configuration loads.
            List<String> args = new ArrayList<>();
            job.path("args").forEach(a -> args.add(a.asText()));
            int config = args.indexOf("--config");
            if (config >= 0) {
                Path wanted = Path.of(args.get(config + 1));
                Optional<String> key =
                        configFiles.entrySet().stream()
                                .filter(e -> e.getValue().equals(wanted))
                                .map(Map.Entry::getKey)
                                .findFirst();
                if (key.isEmpty()) {
                    problems.add(
                            file
                                    + ": --config "
                                    + wanted
                                    + " is no mounted ConfigMap key "
                                    + configFiles);
                } else {
                    problems.addAll(loadProblems(file, manifests, key.get(), env));
                }
            }

            // Prometheus: the reporter's port is the container's metrics port and the scrape
            // annotation.
            String port =
                    deployment
                            .path("spec")
                            .path("flinkConfiguration")
                            .path("metrics.reporter.prom.port")
                            .asText();
            Set<String> containerPorts = new TreeSet<>();
            container
                    .path("ports")
                    .forEach(p -> containerPorts.add(p.path("containerPort").asText()));
            if (!containerPorts.contains(port)
                    || !port.equals(
                            pod.path("metadata")
                                    .path("annotations")
                                    .path("prometheus.io/port")
                                    .asText())) {
                problems.add(
                        file
                                + ": the Prometheus port '"
                                + port
                                + "' is not the container's metrics port "
                                + containerPorts
                                + " and the prometheus.io/port annotation");
            }
        }
        return problems;
    }

    private static List<String> loadProblems(
            String file,
            Map<String, JsonNode> manifests,
            String configMapKey,
            Map<String, String> env) {
        String[] mapAndKey = configMapKey.split("/", 2);
        JsonNode map =
                manifests.values().stream()
                        .filter(m -> "ConfigMap".equals(m.path("kind").asText()))
                        .filter(m -> mapAndKey[0].equals(m.path("metadata").path("name").asText()))
                        .findFirst()
                        .orElseThrow();
        String yaml = map.path("data").path(mapAndKey[1]).asText();
        List<String> problems = new ArrayList<>();
        Matcher ref = ENV_REF.matcher(yaml);
        while (ref.find()) {
            if (!env.containsKey(ref.group(1))) {
                problems.add(
                        file
                                + ": "
                                + configMapKey
                                + " names ${env:"
                                + ref.group(1)
                                + "}, which the pod does not set from a Secret");
            }
        }
        try {
            Path copy = Files.createTempFile("sluice-k8s-", ".yaml");
            try {
                Files.writeString(copy, yaml, StandardCharsets.UTF_8);
                Configuration config = JobConfigLoader.fromArgs(env, "--config", copy.toString());
                if (JobOptions.job(config).get(JobOptions.NAME).isEmpty()) {
                    problems.add(file + ": " + configMapKey + " has an empty job name");
                }
            } finally {
                Files.delete(copy);
            }
        } catch (IllegalArgumentException e) {
            problems.add(file + ": " + configMapKey + " does not load: " + e.getMessage());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return problems;
    }

    /** Where the Dockerfile's COPY whose source contains {@code sourcePart} puts it. */
    private static String copyDestination(String dockerfile, String sourcePart) {
        for (String line : dockerfile.split("\n")) {
            List<String> words =
                    Stream.of(line.trim().split("\\s+"))
                            .filter(w -> !w.startsWith("--"))
                            .collect(Collectors.toList());
            if (words.size() == 3
                    && words.get(0).equals("COPY")
                    && words.get(1).contains(sourcePart)) {
                String destination = words.get(2);
                return destination.endsWith("/")
                        ? destination.substring(0, destination.length() - 1)
                        : destination;
            }
        }
        throw new AssertionError("The Dockerfile copies nothing matching " + sourcePart);
    }

    private static Map<String, JsonNode> flinkResources(Map<String, JsonNode> manifests) {
        return manifests.entrySet().stream()
                .filter(
                        e ->
                                e.getValue()
                                        .path("apiVersion")
                                        .asText()
                                        .startsWith("flink.apache.org/"))
                .collect(
                        Collectors.toMap(
                                Map.Entry::getKey,
                                Map.Entry::getValue,
                                (a, b) -> a,
                                LinkedHashMap::new));
    }

    /** Every manifest in k8s/ by file name, freshly read. */
    private static Map<String, JsonNode> manifests() throws IOException {
        Map<String, JsonNode> manifests = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(K8S)) {
            for (Path file : files.sorted().collect(Collectors.toList())) {
                if (file.toString().endsWith(".yaml")) {
                    manifests.put(file.getFileName().toString(), YAML.readTree(file.toFile()));
                }
            }
        }
        assertThat(manifests).as("manifests in %s", K8S.toAbsolutePath()).isNotEmpty();
        return manifests;
    }

    private static String dockerfile() throws IOException {
        return Files.readString(K8S.resolve("Dockerfile"), StandardCharsets.UTF_8);
    }
}
