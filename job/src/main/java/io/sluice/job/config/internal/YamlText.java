package io.sluice.job.config.internal;

import org.apache.flink.annotation.Internal;

import org.snakeyaml.engine.v2.api.ConstructNode;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;
import org.snakeyaml.engine.v2.schema.JsonSchema;
import org.snakeyaml.engine.v2.schema.Schema;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads a YAML file with every scalar kept as the text written: {@code password: 0123} stays {@code
 * "0123"}, not the number 123, and {@code 1e3} stays {@code "1e3"}. Each typed option parses its
 * own text later. Only a plain empty value, {@code ~} or {@code null} is no value.
 */
@Internal
public final class YamlText {

    private YamlText() {}

    /** The document's top-level mapping (null for an empty file). */
    public static Map<?, ?> load(Path file) throws IOException {
        Load load = new Load(LoadSettings.builder().setSchema(new TextSchema()).build());
        Object document;
        try (Reader reader = Files.newBufferedReader(file)) {
            document = load.loadFromReader(reader);
        } catch (MarkedYamlEngineException e) {
            // The problem and where, never the text around it: it may hold a secret.
            throw new IllegalArgumentException(e.getProblem() + at(e.getProblemMark()), e);
        } catch (YamlEngineException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (document == null || document instanceof Map) {
            return (Map<?, ?>) document;
        }
        throw new IllegalArgumentException(
                "the top level must be a mapping of keys to values, but is a "
                        + document.getClass().getSimpleName());
    }

    private static String at(java.util.Optional<Mark> mark) {
        return mark.map(m -> " at line " + (m.getLine() + 1) + ", column " + (m.getColumn() + 1))
                .orElse("");
    }

    /** JSON's constructors with a resolver that types every scalar as a string but no value. */
    private static final class TextSchema implements Schema {
        private final Map<Tag, ConstructNode> constructors =
                new JsonSchema().getSchemaTagConstructors();

        @Override
        public ScalarResolver getScalarResolver() {
            return (value, implicit) ->
                    implicit && (value.isEmpty() || "~".equals(value) || "null".equals(value))
                            ? Tag.NULL
                            : Tag.STR;
        }

        @Override
        public Map<Tag, ConstructNode> getSchemaTagConstructors() {
            return constructors;
        }
    }
}
