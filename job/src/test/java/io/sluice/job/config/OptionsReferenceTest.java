package io.sluice.job.config;

import org.apache.flink.configuration.ConfigOption;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code docs/options.md} is what the options' declarations say, and every option says something.
 */
class OptionsReferenceTest {

    // Surefire runs each module's tests from the module's folder.
    private static final Path REFERENCE = Path.of("..", "docs", "options.md");
    private static final ClassLoader LOADER = OptionsReferenceTest.class.getClassLoader();

    @Test
    void findsTheOptionClassesOfEveryModule() {
        List<String> names =
                OptionClasses.find(LOADER).keySet().stream()
                        .map(Class::getSimpleName)
                        .collect(Collectors.toList());

        assertThat(names)
                .contains(
                        "JobOptions",
                        "MySqlSourceOptions",
                        "KafkaSinkOptions",
                        "RocketMqSinkOptions",
                        "SluiceCatalogOptions");
    }

    @Test
    void everyOptionHasADescription() {
        List<String> undescribed =
                OptionClasses.find(LOADER).entrySet().stream()
                        .flatMap(
                                e ->
                                        e.getValue().stream()
                                                .filter(o -> withoutEnumValues(o).isBlank())
                                                .map(
                                                        o ->
                                                                e.getKey().getSimpleName()
                                                                        + " '"
                                                                        + o.key()
                                                                        + "'"))
                        .collect(Collectors.toList());

        assertThat(undescribed).as("options without a description").isEmpty();
    }

    @Test
    void referenceIsUpToDate() throws IOException {
        String generated = OptionsReference.render(LOADER);
        String written = Files.readString(REFERENCE, StandardCharsets.UTF_8);

        assertThat(written)
                .as(
                        "docs/options.md is out of date with the options in the code; regenerate"
                                + " it with ./sluice options")
                .isEqualTo(generated);
    }

    @Test
    void referenceNamesEveryKeyOfBothDoors() throws IOException {
        String written = Files.readString(REFERENCE, StandardCharsets.UTF_8);

        assertThat(JobConfigLoader.knownKeys())
                .allSatisfy(key -> assertThat(written).contains("`" + key + "`"));
        for (Map.Entry<Class<?>, List<ConfigOption<?>>> holder :
                OptionClasses.find(LOADER).entrySet()) {
            assertThat(holder.getValue())
                    .allSatisfy(
                            o ->
                                    assertThat(written)
                                            .containsPattern(
                                                    "[`.]" + Pattern.quote(o.key()) + "`"));
        }
    }

    private static String withoutEnumValues(ConfigOption<?> option) {
        String text = OptionsReference.description(option);
        int values = text.lastIndexOf("One of: ");
        return values < 0 ? text : text.substring(0, values);
    }
}
