package io.sluice.functions.source.internal;

import org.apache.flink.configuration.Configuration;

import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.MySqlSourceOptions;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Option {@code source.hostname} as a list of hosts, and what a bad entry says. */
class SourceHostsTest {

    private static final String KEY = "source.hostname";
    private static final String ALLOW = "source.failover.allow-replica";

    private static SourceHosts parse(String value) {
        return SourceHosts.parse(value, 3306, KEY, false, ALLOW);
    }

    private static String addresses(SourceHosts hosts) {
        return hosts.hosts().stream()
                .map(SourceHosts.Host::address)
                .collect(Collectors.joining(" "));
    }

    @Test
    void aListIsTheHostsInOrderEachWithItsPortOrTheDefault() {
        SourceHosts hosts = parse(" db1 , db2:3307,10.0.0.3:33060");
        assertThat(addresses(hosts)).isEqualTo("db1:3306 db2:3307 10.0.0.3:33060");
        assertThat(hosts.isList()).isTrue();
        assertThat(hosts.first().name()).isEqualTo("db1");
        assertThat(hosts.describe()).isEqualTo("db1:3306,db2:3307,10.0.0.3:33060");
    }

    @Test
    void oneHostIsNoList() {
        SourceHosts hosts = parse("db1");
        assertThat(hosts.isList()).isFalse();
        assertThat(addresses(hosts)).isEqualTo("db1:3306");
    }

    @Test
    void ipv6HostsAreBracketedForAPortOrBareWithout() {
        assertThat(addresses(parse("[::1]:3307,fe80::2,[fe80::3]")))
                .isEqualTo("[::1]:3307 [fe80::2]:3306 [fe80::3]:3306");
    }

    @Test
    void anEmptyEntryNamesTheOptionAndTheValue() {
        assertThatThrownBy(() -> parse("db1,,db2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Option 'source.hostname' has an empty entry in 'db1,,db2'")
                .hasMessageContaining("e.g. db1,db2:3307");
        assertThatThrownBy(() -> parse("db1,"))
                .hasMessageContaining("has an empty entry in 'db1,'");
    }

    @Test
    void aBadPortNamesTheOptionTheValueAndTheEntry() {
        assertThatThrownBy(() -> parse("db1,db2:abc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(
                        "Option 'source.hostname' is 'db1,db2:abc', whose entry 'db2:abc' does"
                                + " not parse: its port 'abc' is not a number from 1 to 65535");
        assertThatThrownBy(() -> parse("db1:0"))
                .hasMessageContaining("its port '0' is not a number from 1 to 65535");
        assertThatThrownBy(() -> parse("db1:70000"))
                .hasMessageContaining("its port '70000' is not a number");
        assertThatThrownBy(() -> parse("db1:")).hasMessageContaining("its port '' is not a number");
    }

    @Test
    void anEntryWithoutAHostOrABadBracketDoesNotParse() {
        assertThatThrownBy(() -> parse("db1,:3307"))
                .hasMessageContaining("whose entry ':3307' does not parse: it has no host");
        assertThatThrownBy(() -> parse("[::1]3307"))
                .hasMessageContaining(
                        "whose entry '[::1]3307' does not parse: an IPv6 address is written"
                                + " [address]:port");
    }

    @Test
    void aHostTwiceIsRefused() {
        assertThatThrownBy(() -> parse("db1,DB1:3306"))
                .hasMessageContaining(
                        "Option 'source.hostname' names DB1:3306 twice in 'db1,DB1:3306'");
    }

    @Test
    void noHostAnsweringListsEveryHostAndWhatItSaid() throws Exception {
        int first = closedPort();
        int second = closedPort();
        SourceHosts hosts = parse("127.0.0.1:" + first + ",127.0.0.1:" + second);
        SourceJdbc jdbc = SourceJdbc.of(hosts, "cdc", "cdc", SourceTls.DISABLED);
        assertThatThrownBy(jdbc::connect)
                .isInstanceOf(NoSourceHostException.class)
                .hasMessageContaining(
                        "No host of option 'source.hostname' (127.0.0.1:"
                                + first
                                + ",127.0.0.1:"
                                + second
                                + ") answers: 127.0.0.1:"
                                + first
                                + ": Communications link failure; 127.0.0.1:"
                                + second
                                + ": Communications link failure");
        assertThatThrownBy(jdbc::chosen).isInstanceOf(NoSourceHostException.class);
    }

    /** A local port nothing listens on (connection refused at once). */
    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Test
    void theConfigurationGivesTheDefaultPortTheKeysAndAllowReplica() {
        Configuration config = new Configuration();
        config.setString("source.hostname", "db1,db2:3307");
        config.setString("source.port", "3310");
        config.setString("source.failover.allow-replica", "true");
        SourceHosts hosts = SourceHosts.from(OptionSection.of(config, "source."));
        assertThat(addresses(hosts)).isEqualTo("db1:3310 db2:3307");
        assertThat(hosts.allowReplica()).isTrue();
        assertThat(hosts.hostnameKey()).isEqualTo(KEY);
        assertThat(hosts.allowReplicaKey()).isEqualTo(ALLOW);
        assertThat(MySqlSourceOptions.FAILOVER_ALLOW_REPLICA.defaultValue()).isFalse();
    }
}
