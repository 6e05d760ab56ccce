package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;

import java.io.IOException;

/**
 * An enumerator that deregisters the job's JDBC drivers when it closes ({@link
 * MySqlDrivers#deregister()}), so that a session cluster's JobManager keeps none of them, and with
 * them the job's class loader, after the job.
 */
@Internal
final class DriverReleasingEnumerator<S extends SourceSplit, E> extends DelegatingEnumerator<S, E> {

    DriverReleasingEnumerator(SplitEnumerator<S, E> enumerator) {
        super(enumerator);
    }

    @Override
    public void close() throws IOException {
        try {
            super.close();
        } finally {
            MySqlDrivers.deregister();
        }
    }
}
