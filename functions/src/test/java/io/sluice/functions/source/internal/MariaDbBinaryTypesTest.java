package io.sluice.functions.source.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MariaDbBinaryTypesTest {

    @Test
    void declaresTheColumnsBinaryForTheParser() {
        List<String[]> declared = new ArrayList<>();
        assertThat(
                        MariaDbBinaryTypes.rewrite(
                                "CREATE TABLE t (id INT, `my u` UUID NOT NULL DEFAULT uuid(),"
                                        + " i4 inet4, uuid INET6 NULL)",
                                declared))
                .isEqualTo(
                        "CREATE TABLE t (id INT, `my u` BINARY(16) NOT NULL DEFAULT uuid(),"
                                + " i4 BINARY(4), uuid BINARY(16) NULL)");
        assertThat(declared)
                .containsExactly(
                        new String[] {"my u", "uuid"},
                        new String[] {"i4", "inet4"},
                        new String[] {"uuid", "inet6"});
        declared.clear();
        assertThat(
                        MariaDbBinaryTypes.rewrite(
                                "ALTER TABLE t ADD COLUMN uuid UUID, CHANGE a b INET4", declared))
                .isEqualTo("ALTER TABLE t ADD COLUMN uuid BINARY(16), CHANGE a b BINARY(4)");
        assertThat(declared)
                .containsExactly(new String[] {"uuid", "uuid"}, new String[] {"b", "inet4"});
        String other = "ALTER TABLE t ADD COLUMN uuid CHAR(36)";
        assertThat(MariaDbBinaryTypes.rewrite(other, new ArrayList<>())).isSameAs(other);
    }

    @Test
    void writesInet4AsDottedQuad() {
        assertThat(text("inet4", "c0000201")).isEqualTo("192.0.2.1");
        assertThat(text("inet4", "ffffffff")).isEqualTo("255.255.255.255");
        // The binlog drops trailing zero bytes.
        assertThat(text("inet4", "0a")).isEqualTo("10.0.0.0");
        assertThat(text("inet4", "")).isEqualTo("0.0.0.0");
    }

    @Test
    void writesInet6AsMariaDbDoes() {
        assertThat(text("inet6", "20010db8000000000000000000000001")).isEqualTo("2001:db8::1");
        assertThat(text("inet6", "")).isEqualTo("::");
        assertThat(text("inet6", "00000000000000000000000000000001")).isEqualTo("::1");
        assertThat(text("inet6", "0001")).isEqualTo("1::");
        assertThat(text("inet6", "00000000000000000000ffffc0000280"))
                .isEqualTo("::ffff:192.0.2.128");
        assertThat(text("inet6", "00000000000000000000000001020304")).isEqualTo("::1.2.3.4");
        // The longest run of zero groups, the first of equal ones, a single group too (unlike
        // RFC 5952; seen on MariaDB 11.4.5).
        assertThat(text("inet6", "00010000000000010000000000000001")).isEqualTo("1:0:0:1::1");
        assertThat(text("inet6", "00010000000000010001000000000001")).isEqualTo("1::1:1:0:0:1");
        assertThat(text("inet6", "00010000000100010001000100010001")).isEqualTo("1::1:1:1:1:1:1");
        assertThat(text("inet6", "ffffffffffffffffffffffffffffffff"))
                .isEqualTo("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
    }

    @Test
    void writesUuidsAsTheirBytesInOrder() {
        // The binlog holds a UUID's bytes as its text has them, whatever its version (seen on
        // MariaDB 11.4.5), without the trailing zero bytes.
        assertThat(text("uuid", "123e4567e89b12d3a4564266141740"))
                .isEqualTo("123e4567-e89b-12d3-a456-426614174000");
        assertThat(text("uuid", "0123456789ab7defc123456789abcdef"))
                .isEqualTo("01234567-89ab-7def-c123-456789abcdef");
        assertThat(text("uuid", "")).isEqualTo("00000000-0000-0000-0000-000000000000");
        assertThat(text("uuid", "ffffffffffffffffffffffffffffffff"))
                .isEqualTo("ffffffff-ffff-ffff-ffff-ffffffffffff");
    }

    @Test
    void refusesMoreBytesThanTheTypeStores() {
        assertThatThrownBy(() -> text("inet4", "0102030405"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("inet4 value of 5 bytes, not 4");
    }

    private static String text(String type, String hex) {
        StringBuilder out = new StringBuilder();
        MariaDbBinaryTypes.appendText(type, HexFormat.of().parseHex(hex), out);
        return out.toString();
    }
}
