package io.sluice.functions.source.internal;

import org.junit.jupiter.api.Test;

import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;

class ServerZoneRuleTest {

    private static final int HOUR = 3600;

    @Test
    void anOffsetWithinHalfAnHourAgrees() {
        assertThat(ServerZoneRule.agrees(0, 0, false)).isTrue();
        assertThat(ServerZoneRule.agrees(9 * HOUR, 9 * HOUR, false)).isTrue();
        assertThat(ServerZoneRule.agrees(HOUR / 2, 0, false)).isTrue();
        assertThat(ServerZoneRule.agrees(-HOUR / 2, 0, false)).isTrue();
        assertThat(ServerZoneRule.agrees(HOUR / 2 + 1, 0, false)).isFalse();
        assertThat(ServerZoneRule.agrees(0, 9 * HOUR, false)).isFalse();
        assertThat(ServerZoneRule.agrees(-5 * HOUR, 5 * HOUR, false)).isFalse();
    }

    @Test
    void inDaylightTimeTheStandardOffsetAgreesToo() {
        // Europe/Berlin in summer is +02:00; a server on +01:00 (no daylight saving) agrees.
        assertThat(ServerZoneRule.agrees(HOUR, 2 * HOUR, true)).isTrue();
        assertThat(ServerZoneRule.agrees(2 * HOUR, 2 * HOUR, true)).isTrue();
        assertThat(ServerZoneRule.agrees(HOUR, 2 * HOUR, false)).isFalse();
        // Only one hour back, not forward.
        assertThat(ServerZoneRule.agrees(3 * HOUR, 2 * HOUR, true)).isFalse();
        assertThat(ServerZoneRule.agrees(0, 2 * HOUR, true)).isFalse();
    }

    @Test
    void zonesWithoutDaylightSavingTimeAgreeByTheirOffsetNow() {
        assertThat(ServerZoneRule.agreesNow(0, ZoneId.of("UTC"))).isTrue();
        assertThat(ServerZoneRule.agreesNow(9 * HOUR, ZoneId.of("Asia/Tokyo"))).isTrue();
        assertThat(ServerZoneRule.agreesNow(0, ZoneId.of("Asia/Tokyo"))).isFalse();
        assertThat(ServerZoneRule.agreesNow(9 * HOUR, ZoneId.of("+09:00"))).isTrue();
        assertThat(ServerZoneRule.agreesNow(-8 * HOUR, ZoneId.of("Asia/Shanghai"))).isFalse();
    }

    @Test
    void offsetsReadAsUtcPlusOrMinus() {
        assertThat(ServerZoneRule.utcOffset(0)).isEqualTo("UTC+00:00");
        assertThat(ServerZoneRule.utcOffset(9 * HOUR)).isEqualTo("UTC+09:00");
        assertThat(ServerZoneRule.utcOffset(-(3 * HOUR + 30 * 60))).isEqualTo("UTC-03:30");
        assertThat(ServerZoneRule.offsetNow(ZoneId.of("Asia/Kolkata"))).isEqualTo(5 * HOUR + 1800);
    }
}
