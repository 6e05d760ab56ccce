package io.sluice.functions.table.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectIdentifier;

/** The error of a table whose options the pipeline's checks refuse, the table named. */
@Internal
public final class InvalidTableOptions {

    private InvalidTableOptions() {}

    /** {@code cause}'s message, which names the option by its SQL key, with the table. */
    public static ValidationException of(
            ObjectIdentifier table, String connector, RuntimeException cause) {
        return new ValidationException(
                String.format(
                        "Invalid options of table '%s' ('connector' = '%s'): %s",
                        table.asSummaryString(), connector, cause.getMessage()),
                cause);
    }
}
