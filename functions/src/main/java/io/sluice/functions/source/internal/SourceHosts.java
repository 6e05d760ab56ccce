package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceOptions;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The servers option {@code hostname} names: one host, or a list ({@code db1,db2:3307}) of the
 * servers that may be the primary, tried in order ({@link SourceJdbc#connect()}). Whether a
 * read-only host of a list may be read ({@code failover.allow-replica}) travels with it.
 */
@Internal
public final class SourceHosts implements Serializable {

    private static final long serialVersionUID = 1L;

    /** One server of the list. */
    public static final class Host implements Serializable {
        private static final long serialVersionUID = 1L;

        private final String name;
        private final int port;

        Host(String name, int port) {
            this.name = name;
            this.port = port;
        }

        public String name() {
            return name;
        }

        public int port() {
            return port;
        }

        /** host:port, for messages and the metric. */
        public String address() {
            return name.contains(":") ? "[" + name + "]:" + port : name + ":" + port;
        }

        @Override
        public String toString() {
            return address();
        }
    }

    private final List<Host> hosts;
    private final String hostnameKey;
    private final boolean allowReplica;
    private final String allowReplicaKey;

    private SourceHosts(
            List<Host> hosts, String hostnameKey, boolean allowReplica, String allowReplicaKey) {
        this.hosts = List.copyOf(hosts);
        this.hostnameKey = hostnameKey;
        this.allowReplica = allowReplica;
        this.allowReplicaKey = allowReplicaKey;
    }

    /** {@code host:port} alone, read whether writable or not. */
    public static SourceHosts single(String host, int port) {
        return new SourceHosts(
                List.of(new Host(host, port)),
                MySqlSourceOptions.HOSTNAME.key(),
                false,
                MySqlSourceOptions.FAILOVER_ALLOW_REPLICA.key());
    }

    /** The hosts {@code config}'s {@code hostname}, {@code port} and allow-replica name. */
    public static SourceHosts from(OptionSection config) {
        return parse(
                config.get(MySqlSourceOptions.HOSTNAME),
                config.get(MySqlSourceOptions.PORT),
                config.key(MySqlSourceOptions.HOSTNAME),
                config.get(MySqlSourceOptions.FAILOVER_ALLOW_REPLICA),
                config.key(MySqlSourceOptions.FAILOVER_ALLOW_REPLICA));
    }

    /**
     * Parses {@code value}: hosts separated by commas, each {@code host}, {@code host:port} or
     * {@code [ipv6]:port}; a host without a port has {@code defaultPort}.
     *
     * @throws IllegalArgumentException naming {@code hostnameKey}, the value and the bad entry
     */
    public static SourceHosts parse(
            String value,
            int defaultPort,
            String hostnameKey,
            boolean allowReplica,
            String allowReplicaKey) {
        List<Host> hosts = new ArrayList<>();
        for (String raw : value.split(",", -1)) {
            Host host = parseEntry(raw.trim(), defaultPort, hostnameKey, value);
            for (Host before : hosts) {
                if (before.address().equalsIgnoreCase(host.address())) {
                    throw new IllegalArgumentException(
                            String.format(
                                    "Option '%s' names %s twice in '%s': list each server once.",
                                    hostnameKey, host.address(), value));
                }
            }
            hosts.add(host);
        }
        return new SourceHosts(hosts, hostnameKey, allowReplica, allowReplicaKey);
    }

    private static Host parseEntry(String entry, int defaultPort, String key, String value) {
        if (entry.isEmpty()) {
            throw new IllegalArgumentException(
                    String.format(
                            "Option '%s' has an empty entry in '%s': write hosts separated by"
                                    + " commas, each host or host:port, e.g. db1,db2:3307.",
                            key, value));
        }
        String name = entry;
        String port = null;
        if (entry.startsWith("[")) {
            int end = entry.indexOf(']');
            if (end < 0 || (end + 1 < entry.length() && entry.charAt(end + 1) != ':')) {
                throw badEntry(key, value, entry, "an IPv6 address is written [address]:port");
            }
            name = entry.substring(1, end);
            port = end + 1 < entry.length() ? entry.substring(end + 2) : null;
        } else if (entry.indexOf(':') >= 0 && entry.indexOf(':') == entry.lastIndexOf(':')) {
            name = entry.substring(0, entry.indexOf(':'));
            port = entry.substring(entry.indexOf(':') + 1);
        }
        if (name.isEmpty()) {
            throw badEntry(key, value, entry, "it has no host");
        }
        if (port == null) {
            return new Host(name, defaultPort);
        }
        int number;
        try {
            number = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            number = -1;
        }
        if (number < 1 || number > 65535) {
            throw badEntry(
                    key, value, entry, "its port '" + port + "' is not a number from 1 to 65535");
        }
        return new Host(name, number);
    }

    private static IllegalArgumentException badEntry(
            String key, String value, String entry, String why) {
        return new IllegalArgumentException(
                String.format(
                        "Option '%s' is '%s', whose entry '%s' does not parse: %s. Write hosts"
                                + " separated by commas, each host or host:port, e.g."
                                + " db1,db2:3307.",
                        key, value, entry, why));
    }

    public List<Host> hosts() {
        return hosts;
    }

    public Host first() {
        return hosts.get(0);
    }

    /** Whether this is a list: only then is a host's read-only state asked. */
    public boolean isList() {
        return hosts.size() > 1;
    }

    public boolean allowReplica() {
        return allowReplica;
    }

    /** The option's key, as the configuration names it (e.g. {@code source.hostname}). */
    public String hostnameKey() {
        return hostnameKey;
    }

    public String allowReplicaKey() {
        return allowReplicaKey;
    }

    /** The hosts, for messages: {@code db1:3306,db2:3306}. */
    public String describe() {
        return hosts.stream().map(Host::address).collect(Collectors.joining(","));
    }
}
