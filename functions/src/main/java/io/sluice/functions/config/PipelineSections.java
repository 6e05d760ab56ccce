package io.sluice.functions.config;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The sections a pipeline's options come in. The YAML door reads each from its own prefix of the
 * job's configuration ({@link #SOURCE}, {@link #KAFKA}, ...); a SQL table has them all in its one
 * {@code WITH} clause, without prefixes.
 */
@PublicEvolving
public final class PipelineSections {

    public static final String SOURCE = "source.";
    public static final String SINK = "sink.";
    public static final String KAFKA = "sink.kafka.";
    public static final String ROCKETMQ = "sink.rocketmq.";
    public static final String ENCODE = "encode.";
    public static final String ROUTE = "route.";
    public static final String FILTER = "filter.";

    private final OptionSection source;
    private final OptionSection sink;
    private final OptionSection kafka;
    private final OptionSection rocketMq;
    private final OptionSection encode;
    private final OptionSection route;
    private final OptionSection filter;

    private PipelineSections(
            OptionSection source,
            OptionSection sink,
            OptionSection kafka,
            OptionSection rocketMq,
            OptionSection encode,
            OptionSection route,
            OptionSection filter) {
        this.source = source;
        this.sink = sink;
        this.kafka = kafka;
        this.rocketMq = rocketMq;
        this.encode = encode;
        this.route = route;
        this.filter = filter;
    }

    /** The sections of the YAML door's configuration, each under its prefix. */
    public static PipelineSections of(ReadableConfig whole) {
        return new PipelineSections(
                OptionSection.of(whole, SOURCE),
                OptionSection.of(whole, SINK),
                OptionSection.of(whole, KAFKA),
                OptionSection.of(whole, ROCKETMQ),
                OptionSection.of(whole, ENCODE),
                OptionSection.of(whole, ROUTE),
                OptionSection.of(whole, FILTER));
    }

    /** Every section read from the same prefix-less options, as a SQL table gives them. */
    public static PipelineSections unprefixed(ReadableConfig options) {
        OptionSection all = OptionSection.unprefixed(options);
        return new PipelineSections(all, all, all, all, all, all, all);
    }

    public OptionSection source() {
        return source;
    }

    /** What every sink shares: the sink type and the large-message options. */
    public OptionSection sink() {
        return sink;
    }

    public OptionSection kafka() {
        return kafka;
    }

    public OptionSection rocketMq() {
        return rocketMq;
    }

    public OptionSection encode() {
        return encode;
    }

    /** The route and partition options. */
    public OptionSection route() {
        return route;
    }

    public OptionSection filter() {
        return filter;
    }
}
