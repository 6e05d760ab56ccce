package io.sluice.functions.filter.internal;

import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.OptionSection;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.sql.Types;
import java.util.Map;

/** Tables, rows and settings shared by the filter tests. */
final class FilterTestData {

    static final TableSchema USERS =
            TableSchema.builder("shop", "users")
                    .column("id", "bigint(20)", Types.BIGINT, true)
                    .column("email", "varchar(255)", Types.VARCHAR, false)
                    .column("phone", "varchar(32)", Types.VARCHAR, false)
                    .column("amount", "decimal(10,2)", Types.DECIMAL, false)
                    .column("note", "text", Types.LONGVARCHAR, false)
                    .build();

    private FilterTestData() {}

    static FilterSettings settings(Map<String, String> options) {
        return FilterSettings.from(OptionSection.of(Configuration.fromMap(options), "filter."));
    }

    static RowImage row(String... values) {
        RowImage.Builder b = new RowImage.Builder();
        for (String v : values) {
            if (v == null) {
                b.appendNull();
            } else {
                b.append(v);
            }
        }
        return b.build();
    }

    static ChangeEvent insert(RowImage after) {
        return ChangeEvent.builder(USERS, ChangeType.INSERT).after(after).build();
    }

    static ChangeEvent update(RowImage before, RowImage after) {
        return ChangeEvent.builder(USERS, ChangeType.UPDATE).before(before).after(after).build();
    }
}
