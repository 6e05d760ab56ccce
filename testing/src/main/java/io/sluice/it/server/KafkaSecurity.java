package io.sluice.it.server;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * How clients reach a {@link KafkaServer}: plain TCP with no authorization ({@link #none()}), or
 * SASL/PLAIN with the standard KRaft authorizer ({@link #saslPlain(Map)}), where only the super
 * user {@link #SUPER_USER} may do anything an ACL does not allow.
 */
public final class KafkaSecurity {

    /** The broker's own user, a super user; the server's admin, producer and drains use it. */
    public static final String SUPER_USER = "admin";

    private static final String SUPER_PASSWORD = "admin-secret";
    private static final String PLAIN_LOGIN =
            "org.apache.kafka.common.security.plain.PlainLoginModule";

    private final Map<String, String> users;

    private KafkaSecurity(Map<String, String> users) {
        this.users = users;
    }

    /** A PLAINTEXT listener, no authorizer: what every other test uses. */
    public static KafkaSecurity none() {
        return new KafkaSecurity(null);
    }

    /**
     * A SASL_PLAINTEXT listener (mechanism PLAIN) knowing {@link #SUPER_USER} and {@code users}
     * (name to password), with {@code StandardAuthorizer}: nothing is allowed without an ACL. The
     * controller listener stays PLAINTEXT on loopback; its anonymous principal (the broker talking
     * to its own controller) is a super user too.
     */
    public static KafkaSecurity saslPlain(Map<String, String> users) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put(SUPER_USER, SUPER_PASSWORD);
        users.forEach(
                (user, password) -> {
                    if (all.putIfAbsent(user, password) != null) {
                        throw new IllegalArgumentException("User " + user + " is reserved");
                    }
                });
        return new KafkaSecurity(all);
    }

    boolean secured() {
        return users != null;
    }

    /** The client listener's name (also its security protocol). */
    String listenerName() {
        return secured() ? "SASL_PLAINTEXT" : "PLAINTEXT";
    }

    /** Broker settings beyond the listeners' addresses. */
    Map<String, String> brokerProperties() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put(
                "listener.security.protocol.map",
                listenerName() + ":" + listenerName() + ",CONTROLLER:PLAINTEXT");
        props.put("inter.broker.listener.name", listenerName());
        if (!secured()) {
            return props;
        }
        props.put("sasl.enabled.mechanisms", "PLAIN");
        props.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        // The listener's JAAS entry: the broker logs in as the super user (inter-broker requests,
        // such as transaction markers to itself) and checks clients against the user_* entries.
        StringBuilder jaas = new StringBuilder(login(SUPER_USER, SUPER_PASSWORD));
        jaas.setLength(jaas.length() - 1);
        users.forEach(
                (user, password) ->
                        jaas.append(" user_")
                                .append(user)
                                .append("=\"")
                                .append(password)
                                .append('"'));
        jaas.append(';');
        props.put(
                "listener.name." + listenerName().toLowerCase() + ".plain.sasl.jaas.config",
                jaas.toString());
        props.put(
                "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        props.put("super.users", "User:" + SUPER_USER + ";User:ANONYMOUS");
        return props;
    }

    /** The settings a client needs to log in as {@code user}; none without security. */
    public Map<String, String> clientProperties(String user) {
        Map<String, String> props = new LinkedHashMap<>();
        if (!secured()) {
            return props;
        }
        String password = users.get(user);
        if (password == null) {
            throw new IllegalArgumentException("No such user: " + user);
        }
        props.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        props.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        props.put(SaslConfigs.SASL_JAAS_CONFIG, login(user, password));
        return props;
    }

    /** {@link #clientProperties(String)} of the super user, added to {@code props}. */
    void addSuperUser(Properties props) {
        props.putAll(clientProperties(SUPER_USER));
    }

    private static String login(String user, String password) {
        return PLAIN_LOGIN + " required username=\"" + user + "\" password=\"" + password + "\";";
    }
}
