package io.sluice.functions.source.internal;

import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;
import org.apache.flink.metrics.testutils.MetricListener;
import org.apache.flink.runtime.metrics.groups.InternalSourceReaderMetricGroup;
import org.apache.flink.util.SimpleUserCodeClassLoader;
import org.apache.flink.util.UserCodeClassLoader;

import java.util.ArrayList;
import java.util.List;

/**
 * A source reader's context outside a task: metrics into a {@link MetricListener}, and the events
 * sent to the enumerator and the split requests kept for the test to read.
 */
public final class RecordingReaderContext implements SourceReaderContext {

    private final SourceReaderMetricGroup metrics;
    private final int subtask;
    private final List<SourceEvent> sent = new ArrayList<>();
    private int splitRequests;

    public RecordingReaderContext(MetricListener listener, int subtask) {
        this.metrics = InternalSourceReaderMetricGroup.mock(listener.getMetricGroup());
        this.subtask = subtask;
    }

    /** The events sent to the enumerator, oldest first. */
    public List<SourceEvent> sent() {
        return sent;
    }

    /** How many times the reader asked the enumerator for a split. */
    public int splitRequests() {
        return splitRequests;
    }

    @Override
    public SourceReaderMetricGroup metricGroup() {
        return metrics;
    }

    @Override
    public Configuration getConfiguration() {
        return new Configuration();
    }

    @Override
    public String getLocalHostName() {
        return "localhost";
    }

    @Override
    public int getIndexOfSubtask() {
        return subtask;
    }

    @Override
    public void sendSplitRequest() {
        splitRequests++;
    }

    @Override
    public void sendSourceEventToCoordinator(SourceEvent event) {
        sent.add(event);
    }

    @Override
    public UserCodeClassLoader getUserCodeClassLoader() {
        return SimpleUserCodeClassLoader.create(getClass().getClassLoader());
    }
}
