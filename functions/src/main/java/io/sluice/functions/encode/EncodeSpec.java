package io.sluice.functions.encode;

import org.apache.flink.api.common.functions.RuntimeContext;

import io.sluice.functions.encode.internal.GroupSettings;
import io.sluice.functions.encode.internal.LargeMessageSettings;
import io.sluice.functions.filter.internal.FilterSettings;

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

    /**
     * @param out what is emitted per message
     * @param largeMessages null for no size check (tests that write to no broker)
     * @param filters null for every column as it is
     * @param grouping null for one row per message
     */
    EncodeSpec(
            MessageFormat format,
            MessageOut<OUT> out,
            @Nullable LargeMessageSettings largeMessages,
            @Nullable FilterSettings filters,
            @Nullable GroupSettings grouping) {
        this.format = format;
        this.out = out;
        this.largeMessages = largeMessages;
        this.filters = filters == null || !filters.shapesColumns() ? null : filters;
        this.grouping = grouping;
    }

    RoutedEncoding<OUT> open(RuntimeContext context) {
        return new RoutedEncoding<>(context, format, out, largeMessages, filters, grouping);
    }
}
