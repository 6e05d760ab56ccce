package io.sluice.it.server;

/**
 * A {@link KafkaServer} for a test class: the test JVM's shared one (PLAINTEXT, no authorizer), or
 * a private one.
 *
 * <pre>{@code
 * @RegisterExtension static final KafkaExtension KAFKA = KafkaExtension.shared();
 * @RegisterExtension static final KafkaExtension KAFKA =
 *         KafkaExtension.own("SASL on the client listener", KafkaSecurity.saslPlain(users));
 * }</pre>
 *
 * <p>Tests on the shared server use their own topics, consumer groups and transactional ids.
 */
public final class KafkaExtension extends ServerExtension<KafkaServer> {

    private KafkaExtension(String privateReason, KafkaSecurity security) {
        super("Kafka", () -> KafkaServer.start(security), privateReason);
    }

    /** The Kafka server the whole test JVM shares. */
    public static KafkaExtension shared() {
        return new KafkaExtension(null, KafkaSecurity.none());
    }

    /** A server of the class's own with {@code security}; {@code why} says why it cannot share. */
    public static KafkaExtension own(String why, KafkaSecurity security) {
        return new KafkaExtension(why, security);
    }
}
