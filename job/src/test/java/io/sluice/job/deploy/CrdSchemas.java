package io.sluice.job.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The Flink Kubernetes Operator's CRD schemas ({@code
 * META-INF/fabric8/<plural>.flink.apache.org-v1.yml} in {@code flink-kubernetes-operator-api}) as
 * JSON schemas, validating manifests as strictly as the API server with field validation does:
 * OpenAPI's {@code nullable} becomes a null type, {@code x-kubernetes-int-or-string} an
 * integer-or-string, and an object that does not preserve unknown fields rejects fields it does not
 * declare (a typo is an error, not a silently pruned field).
 */
final class CrdSchemas {

    private static final YAMLMapper YAML = new YAMLMapper();
    private static final JsonSchemaFactory FACTORY =
            JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4);

    private CrdSchemas() {}

    /** The schema for {@code apiVersion}/{@code kind} of a flink.apache.org resource. */
    static JsonSchema forResource(String apiVersion, String kind) {
        String[] groupVersion = apiVersion.split("/");
        String plural = kind.toLowerCase(Locale.ROOT) + "s";
        String resource = "/META-INF/fabric8/" + plural + "." + groupVersion[0] + "-v1.yml";
        JsonNode crd;
        try (InputStream in = CrdSchemas.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException(
                        "No CRD for kind " + kind + " (" + resource + " is not on the classpath)");
            }
            crd = YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + resource, e);
        }
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (version.path("name").asText().equals(groupVersion[1])) {
                ObjectNode schema = version.path("schema").path("openAPIV3Schema").deepCopy();
                addObjectMeta(schema, apiVersion, kind);
                return FACTORY.getSchema(toJsonSchema(schema));
            }
        }
        throw new IllegalArgumentException("The CRD of " + kind + " has no version " + apiVersion);
    }

    /**
     * The API server adds {@code apiVersion}, {@code kind} and {@code metadata} to every CRD's
     * schema; the generated CRD does not list them.
     */
    private static void addObjectMeta(ObjectNode schema, String apiVersion, String kind) {
        ObjectNode properties = (ObjectNode) schema.get("properties");
        properties.putObject("apiVersion").put("type", "string").putArray("enum").add(apiVersion);
        properties.putObject("kind").put("type", "string").putArray("enum").add(kind);
        ObjectNode metadata = properties.putObject("metadata");
        metadata.put("type", "object");
        metadata.putArray("required").add("name");
        metadata.putObject("properties")
                .putObject("name")
                .put("type", "string")
                .put("pattern", "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
        // Labels, annotations, namespace and the rest are not this test's concern.
        metadata.put("x-kubernetes-preserve-unknown-fields", true);
        ArrayNode required = schema.withArray("required");
        required.add("apiVersion").add("kind").add("metadata");
    }

    /** Validation errors of {@code manifest}; empty when it is valid. */
    static List<String> validate(JsonNode manifest) {
        JsonSchema schema =
                forResource(manifest.path("apiVersion").asText(), manifest.path("kind").asText());
        Set<ValidationMessage> errors = schema.validate(manifest);
        return errors.stream()
                .map(ValidationMessage::getMessage)
                .sorted()
                .collect(Collectors.toList());
    }

    /** Rewrites an OpenAPI v3 (structural) schema node in place into a strict JSON schema. */
    static ObjectNode toJsonSchema(ObjectNode node) {
        boolean preserveUnknown =
                node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        boolean intOrString = node.path("x-kubernetes-int-or-string").asBoolean(false);
        List<String> vendorKeys = new ArrayList<>();
        node.fieldNames()
                .forEachRemaining(
                        name -> {
                            if (name.startsWith("x-kubernetes-")) {
                                vendorKeys.add(name);
                            }
                        });
        node.remove(vendorKeys);
        if (intOrString && !node.has("type") && !node.has("anyOf")) {
            ArrayNode anyOf = node.putArray("anyOf");
            anyOf.addObject().put("type", "integer");
            anyOf.addObject().put("type", "string");
        }
        if (node.path("nullable").asBoolean(false) && node.path("type").isTextual()) {
            ArrayNode types = JsonNodeFactory.instance.arrayNode();
            types.add(node.path("type").asText()).add("null");
            node.set("type", types);
        }
        node.remove("nullable");
        if (node.has("properties") && !node.has("additionalProperties") && !preserveUnknown) {
            node.put("additionalProperties", false);
        }

        for (Iterator<Map.Entry<String, JsonNode>> it = node.path("properties").fields();
                it.hasNext(); ) {
            JsonNode property = it.next().getValue();
            if (property.isObject()) {
                toJsonSchema((ObjectNode) property);
            }
        }
        for (String single : List.of("items", "additionalProperties", "not")) {
            if (node.path(single).isObject()) {
                toJsonSchema((ObjectNode) node.get(single));
            }
        }
        for (String many : List.of("anyOf", "allOf", "oneOf")) {
            for (JsonNode branch : node.path(many)) {
                if (branch.isObject()) {
                    toJsonSchema((ObjectNode) branch);
                }
            }
        }
        return node;
    }
}
