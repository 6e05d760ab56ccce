package io.sluice.functions.encode;

import org.apache.flink.api.common.functions.RuntimeContext;

import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.functions.encode.internal.LargeMessageSettings;
import io.sluice.functions.filter.internal.FilterSettings;
import io.sluice.serializers.debezium.DebeziumJsonSettings;

import javax.annotation.Nullable;

import java.io.Serializable;

/**
 * What an encode function is built with, shipped with it to its subtasks, where {@link #open} makes
 * the subtask's {@link RoutedEncoding}: shared by the one-row and the grouping function.
 */
final class EncodeSpec<OUT> implements Serializable {

    private static final long serialVersionUID = 1L;

    private final MessageFormat format;
    private final MessageOut<OUT> out;
    @Nullable private final LargeMessageSettings largeMessages;
    @Nullable private final FilterSettings filters;
    @Nullable private final GroupSettings grouping;
    @Nullable private final DebeziumJsonSettings debezium;

    /**
     * @param out what is emitted per message
     * @param largeMessages null for no size check (tests that write to no broker)
     * @param filters null for every column as it is
     * @param grouping null for one row per message
     * @param debezium debezium-json's settings; null for the other formats
     */
    EncodeSpec(
            MessageFormat format,
            MessageOut<OUT> out,
            @Nullable LargeMessageSettings largeMessages,
            @Nullable FilterSettings filters,
            @Nullable GroupSettings grouping,
            @Nullable DebeziumJsonSettings debezium) {
        if (format.isDebezium() && grouping != null) {
            throw new IllegalArgumentException(
                    "Option '"
                            + EncodeOptions.GROUP_ROWS.key()
                            + "' is 'event', but format 'debezium-json' writes one row per"
                            + " message, as Debezium: set it to 'none'");
        }
        if (format.isDebezium() && debezium == null) {
            throw new IllegalArgumentException("Format 'debezium-json' needs its settings");
        }
        this.debezium = debezium;
        this.format = format;
        this.out = out;
        this.largeMessages = largeMessages;
        this.filters = filters == null || !filters.shapesColumns() ? null : filters;
        this.grouping = grouping;
    }

    RoutedEncoding<OUT> open(RuntimeContext context) {
        return new RoutedEncoding<>(
                context, format, out, largeMessages, filters, grouping, debezium);
    }
}
