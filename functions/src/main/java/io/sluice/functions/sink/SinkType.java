package io.sluice.functions.sink;

import org.apache.flink.annotation.PublicEvolving;

/** The broker Sluice writes to. */
@PublicEvolving
public enum SinkType {
    KAFKA("kafka", "Kafka sink"),
    ROCKETMQ("rocketmq", "RocketMQ sink");

    private final String value;
    private final String operatorName;

    SinkType(String value, String operatorName) {
        this.value = value;
        this.operatorName = operatorName;
    }

    /** The sink operator's name in the job graph and the web UI. */
    public String operatorName() {
        return operatorName;
    }

    /** The sink operator's uid: stable, so savepoints restore into the same sink. */
    public String uid() {
        return value + "-sink";
    }

    /** The configuration value, which is also what Flink parses. */
    @Override
    public String toString() {
        return value;
    }
}
