package io.sluice.functions.sink.rocketmq.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.util.UserCodeClassLoader;

import org.apache.rocketmq.logging.ch.qos.logback.classic.LoggerContext;
import org.apache.rocketmq.logging.org.slf4j.ILoggerFactory;
import org.apache.rocketmq.logging.org.slf4j.LoggerFactory;

/**
 * The RocketMQ client's own logging (a logback shaded into it) starts an asynchronous appender
 * thread that never ends; in a session cluster, where the client comes with each job's jar, that
 * thread kept every job's class loader, and with it all of the job's classes, after the job. Its
 * logging is stopped when Flink releases the job's class loader on a TaskManager.
 */
@Internal
public final class RocketMqClientLogging {

    private static final String HOOK = "sluice-rocketmq-client-logging";

    private RocketMqClientLogging() {}

    /** Stops the client's logging when {@code loader} is released (once per loader). */
    public static void stopOnRelease(UserCodeClassLoader loader) {
        loader.registerReleaseHookIfAbsent(HOOK, RocketMqClientLogging::stop);
    }

    private static void stop() {
        // Where the client is the framework's (a MiniCluster in one JVM), other users share it.
        if (LoggerContext.class.getClassLoader() == Sink.class.getClassLoader()) {
            return;
        }
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (factory instanceof LoggerContext) {
            ((LoggerContext) factory).stop();
        }
    }
}
