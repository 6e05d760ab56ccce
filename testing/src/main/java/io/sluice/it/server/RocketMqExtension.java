package io.sluice.it.server;

/**
 * A {@link RocketMqServer} (name server and broker) for a test class: the test JVM's shared one,
 * with {@link RocketMqServer.Settings#DEFAULTS}, or a private one.
 *
 * <pre>{@code
 * @RegisterExtension static final RocketMqExtension ROCKETMQ = RocketMqExtension.shared();
 * @RegisterExtension static final RocketMqExtension ROCKETMQ =
 *         RocketMqExtension.own("restarts the broker", RocketMqServer.Settings.DEFAULTS);
 * }</pre>
 *
 * <p>Tests on the shared server use their own topics and producer and consumer groups.
 */
public final class RocketMqExtension extends ServerExtension<RocketMqServer> {

    private RocketMqExtension(String privateReason, RocketMqServer.Settings settings) {
        super("RocketMQ", () -> RocketMqServer.start(settings), privateReason);
    }

    /** The RocketMQ server the whole test JVM shares. */
    public static RocketMqExtension shared() {
        return new RocketMqExtension(null, RocketMqServer.Settings.DEFAULTS);
    }

    /** A server of the class's own with {@code settings}; {@code why} says why it cannot share. */
    public static RocketMqExtension own(String why, RocketMqServer.Settings settings) {
        return new RocketMqExtension(why, settings);
    }
}
