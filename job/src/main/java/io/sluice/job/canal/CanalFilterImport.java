package io.sluice.job.canal;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.config.PipelineSections;
import io.sluice.functions.filter.ChangeKind;
import io.sluice.functions.filter.FilterOptions;
import io.sluice.functions.filter.internal.FilterSettings;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Canal's column filters ({@code filter.field}, {@code filter.black.field}) and change-type filters
 * ({@code filter.rows}, {@code filter.dml.*}) as Sluice's {@code filter.*} options. Statement
 * filters ({@code filter.query.*}) are source options, translated by {@link CanalImport}.
 */
final class CanalFilterImport {

    private static final String ROWS = "canal.instance.filter.rows";
    private static final Map<String, ChangeKind> DML_KEYS =
            Map.of(
                    "canal.instance.filter.dml.insert", ChangeKind.INSERT,
                    "canal.instance.filter.dml.update", ChangeKind.UPDATE,
                    "canal.instance.filter.dml.delete", ChangeKind.DELETE);

    private CanalFilterImport() {}

    static void translate(CanalSettings canal, SluiceYaml yaml, List<String> problems) {
        columns(
                canal,
                yaml,
                problems,
                "canal.instance.filter.field",
                FilterOptions.COLUMNS_INCLUDE);
        columns(
                canal,
                yaml,
                problems,
                "canal.instance.filter.black.field",
                FilterOptions.COLUMNS_EXCLUDE);
        kinds(canal, yaml);
    }

    /** Canal's field-filter syntax is Sluice's; checked by Sluice's parser, naming Canal's key. */
    private static void columns(
            CanalSettings canal,
            SluiceYaml yaml,
            List<String> problems,
            String key,
            ConfigOption<String> option) {
        canal.take(key)
                .ifPresent(
                        value -> {
                            Configuration check = new Configuration();
                            check.setString(PipelineSections.FILTER + option.key(), value);
                            try {
                                FilterSettings.from(
                                        OptionSection.of(check, PipelineSections.FILTER));
                            } catch (IllegalArgumentException e) {
                                CanalImport.problem(problems, canal, key, e.getMessage());
                                return;
                            }
                            yaml.set(
                                    PipelineSections.FILTER + option.key(),
                                    value,
                                    "From "
                                            + key
                                            + " (same syntax). Unlike Canal, each table's"
                                            + " primary-key columns stay in its messages.");
                        });
    }

    private static void kinds(CanalSettings canal, SluiceYaml yaml) {
        Set<ChangeKind> kept = EnumSet.allOf(ChangeKind.class);
        boolean noRows = canal.take(ROWS).map(CanalSettings::isTrue).orElse(false);
        List<String> from = noRows ? List.of(ROWS + "=true") : new ArrayList<>();
        for (Map.Entry<String, ChangeKind> dml : DML_KEYS.entrySet()) {
            boolean dropped = canal.take(dml.getKey()).map(CanalSettings::isTrue).orElse(false);
            if (noRows || dropped) {
                kept.remove(dml.getValue());
            }
            if (dropped && !noRows) {
                from.add(dml.getKey() + "=true");
            }
        }
        if (kept.size() == ChangeKind.values().length) {
            return;
        }
        yaml.set(
                PipelineSections.FILTER + FilterOptions.TYPES.key(),
                kept.stream().map(ChangeKind::toString).collect(Collectors.toList()),
                "From " + from.stream().sorted().collect(Collectors.joining(", ")) + ".");
    }
}
