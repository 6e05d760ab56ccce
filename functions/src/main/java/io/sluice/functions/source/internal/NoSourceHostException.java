package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import java.sql.SQLException;

/**
 * No host of a {@code hostname} list can be read now: none answers, or every one that answers is
 * read-only and {@code failover.allow-replica} is off. The message lists every host and what it
 * said.
 */
@Internal
public final class NoSourceHostException extends SQLException {

    private static final long serialVersionUID = 1L;

    NoSourceHostException(String message) {
        super(message);
    }
}
