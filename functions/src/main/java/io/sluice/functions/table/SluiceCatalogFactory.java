package io.sluice.functions.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CommonCatalogOptions;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceOptions;
import io.sluice.functions.source.internal.SourceJdbc;
import io.sluice.functions.table.internal.SluiceCatalog;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import static io.sluice.functions.table.SluiceCatalogOptions.DEFAULT_DATABASE;
import static io.sluice.functions.table.SluiceCatalogOptions.TABLE_PATTERN;

/**
 * {@code CREATE CATALOG cdc WITH ('type' = 'sluice', 'hostname' = ..., 'password' = ...)}: the
 * databases of a MySQL or MariaDB server as change tables, with no schema to write. {@code
 * cdc.<database>.changes} holds every change of the database's tables that {@code table-pattern}
 * matches, {@code cdc.<database>.<table>} those of one table; see {@link SluiceCatalog}.
 */
@Internal
public final class SluiceCatalogFactory implements CatalogFactory {

    @Override
    public String factoryIdentifier() {
        return SluiceCatalogOptions.IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(MySqlSourceOptions.PASSWORD);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new LinkedHashSet<>();
        options.add(TABLE_PATTERN);
        options.add(DEFAULT_DATABASE);
        options.addAll(new MySqlDynamicTableFactory().optionalOptions());
        return options;
    }

    @Override
    public Catalog createCatalog(Context context) {
        FactoryUtil.CatalogFactoryHelper helper =
                FactoryUtil.createCatalogFactoryHelper(this, context);
        helper.validate();
        String pattern = helper.getOptions().get(TABLE_PATTERN);
        try {
            Pattern.compile(pattern);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(
                    String.format(
                            "Catalog '%s' ('type' = '%s'): option '%s' takes a regular"
                                    + " expression, but '%s' is not one: %s",
                            context.getName(),
                            factoryIdentifier(),
                            TABLE_PATTERN.key(),
                            pattern,
                            e.getDescription()),
                    e);
        }
        // Every change table gets the source options as they were given; the table factory
        // applies the defaults and checks them when a statement reads the table.
        Map<String, String> tableOptions = new HashMap<>(context.getOptions());
        tableOptions.remove(CommonCatalogOptions.CATALOG_TYPE.key());
        tableOptions.remove(FactoryUtil.PROPERTY_VERSION.key());
        tableOptions.remove(TABLE_PATTERN.key());
        tableOptions.remove(DEFAULT_DATABASE.key());
        tableOptions.put(FactoryUtil.CONNECTOR.key(), MySqlDynamicTableFactory.IDENTIFIER);
        return new SluiceCatalog(
                context.getName(),
                helper.getOptions().get(DEFAULT_DATABASE),
                SourceJdbc.from(OptionSection.unprefixed(helper.getOptions())),
                pattern,
                tableOptions);
    }
}
