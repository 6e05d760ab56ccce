package io.sluice.functions.source;

import io.sluice.functions.source.internal.TemporalText;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TemporalTextTest {

    @Test
    void datesMatchTheGregorianCalendarAcrossTheWholeMySqlRange() {
        for (LocalDate d = LocalDate.of(1000, 1, 1);
                d.isBefore(LocalDate.of(10000, 1, 1));
                d = d.plusDays(997)) {
            assertThat(date(d.toEpochDay())).isEqualTo(d.toString());
            assertThat(TemporalText.epochDay(d.getYear(), d.getMonthValue(), d.getDayOfMonth()))
                    .isEqualTo(d.toEpochDay());
        }
        assertThat(date(LocalDate.of(2024, 2, 29).toEpochDay())).isEqualTo("2024-02-29");
        assertThat(date(LocalDate.of(9999, 12, 31).toEpochDay())).isEqualTo("9999-12-31");
        assertThat(date(LocalDate.of(1, 1, 1).toEpochDay())).isEqualTo("0001-01-01");
        assertThat(date(0)).isEqualTo("1970-01-01");
        assertThat(date(-1)).isEqualTo("1969-12-31");
    }

    @Test
    void dateTimeHasExactlyFspFractionDigitsKeptNotRounded() {
        long micros = micros(LocalDateTime.of(2024, 2, 29, 23, 59, 59, 123_456_000));
        assertThat(dateTime(micros, 0)).isEqualTo("2024-02-29 23:59:59");
        assertThat(dateTime(micros, 1)).isEqualTo("2024-02-29 23:59:59.1");
        assertThat(dateTime(micros, 3)).isEqualTo("2024-02-29 23:59:59.123");
        assertThat(dateTime(micros, 5)).isEqualTo("2024-02-29 23:59:59.12345");
        assertThat(dateTime(micros, 6)).isEqualTo("2024-02-29 23:59:59.123456");
        long round = micros(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 120_000_000));
        assertThat(dateTime(round, 3)).isEqualTo("2024-01-02 03:04:05.120");
        assertThat(dateTime(round, 6)).isEqualTo("2024-01-02 03:04:05.120000");
    }

    @Test
    void dateTimeBeforeTheEpochAndAtTheEdges() {
        assertThat(dateTime(micros(LocalDateTime.of(1000, 1, 1, 0, 0)), 3))
                .isEqualTo("1000-01-01 00:00:00.000");
        assertThat(dateTime(micros(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000)), 6))
                .isEqualTo("1969-12-31 23:59:59.999999");
        assertThat(dateTime(micros(LocalDateTime.of(9999, 12, 31, 23, 59, 59)), 0))
                .isEqualTo("9999-12-31 23:59:59");
    }

    @Test
    void timeKeepsSignLargeHoursAndFraction() {
        assertThat(time(0, 0)).isEqualTo("00:00:00");
        assertThat(time(43_200_000_001L, 6)).isEqualTo("12:00:00.000001");
        assertThat(time(3_020_399_000_000L, 0)).isEqualTo("838:59:59");
        assertThat(time(-3_020_399_000_000L, 0)).isEqualTo("-838:59:59");
        assertThat(time(-3_020_399_000_000L, 6)).isEqualTo("-838:59:59.000000");
        assertThat(time(-3_600_000_000L, 0)).isEqualTo("-01:00:00");
        assertThat(time(-500_000L, 6)).isEqualTo("-00:00:00.500000");
        assertThat(time(100 * 3_600_000_000L, 0)).isEqualTo("100:00:00");
        assertThat(time(25 * 3_600_000_000L + 61_000_000L, 2)).isEqualTo("25:01:01.00");
    }

    @Test
    void timestampIsWrittenInTheGivenOffsetAndEpochZeroIsTheZeroTimestamp() {
        long instant = 1_700_000_000_500_000L;
        assertThat(timestamp(instant, 0, 3)).isEqualTo("2023-11-14 22:13:20.500");
        assertThat(timestamp(instant, 8 * 3600, 3)).isEqualTo("2023-11-15 06:13:20.500");
        assertThat(timestamp(instant, -5 * 3600, 0)).isEqualTo("2023-11-14 17:13:20");
        assertThat(timestamp(0, 8 * 3600, 0)).isEqualTo("0000-00-00 00:00:00");
        assertThat(timestamp(0, 0, 2)).isEqualTo("0000-00-00 00:00:00.00");
        assertThat(timestamp(1_000_000L, 0, 0)).isEqualTo("1970-01-01 00:00:01");
    }

    @Test
    void parsesDebeziumZonedTimestamps() {
        assertThat(TemporalText.parseIsoInstantMicros("2024-02-29T23:59:59.12Z"))
                .isEqualTo(micros(LocalDateTime.of(2024, 2, 29, 23, 59, 59, 120_000_000)));
        assertThat(TemporalText.parseIsoInstantMicros("2038-01-19T03:14:07Z"))
                .isEqualTo(2_147_483_647_000_000L);
        assertThat(TemporalText.parseIsoInstantMicros("1970-01-01T00:00:00Z")).isZero();
        assertThat(TemporalText.parseIsoInstantMicros("2024-01-01T08:00:00.000001+08:00"))
                .isEqualTo(micros(LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1_000)));
        assertThat(TemporalText.parseIsoInstantMicros("2024-01-01T00:00:00.123456789-01:30"))
                .isEqualTo(micros(LocalDateTime.of(2024, 1, 1, 1, 30, 0, 123_456_000)));
        assertThatThrownBy(() -> TemporalText.parseIsoInstantMicros("2024-01-01 00:00:00"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2024-01-01 00:00:00");
        assertThatThrownBy(() -> TemporalText.parseIsoInstantMicros("2024-13-01T00:00:00Z"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static long micros(LocalDateTime wallClock) {
        return ChronoUnit.MICROS.between(
                LocalDateTime.of(1970, 1, 1, 0, 0).atOffset(ZoneOffset.UTC),
                wallClock.atOffset(ZoneOffset.UTC));
    }

    private static String date(long epochDay) {
        StringBuilder out = new StringBuilder();
        TemporalText.appendDate(out, epochDay);
        return out.toString();
    }

    private static String dateTime(long micros, int fsp) {
        StringBuilder out = new StringBuilder();
        TemporalText.appendDateTime(out, micros, fsp);
        return out.toString();
    }

    private static String time(long micros, int fsp) {
        StringBuilder out = new StringBuilder();
        TemporalText.appendTime(out, micros, fsp);
        return out.toString();
    }

    private static String timestamp(long micros, int offsetSeconds, int fsp) {
        StringBuilder out = new StringBuilder();
        TemporalText.appendTimestamp(out, micros, offsetSeconds, fsp);
        return out.toString();
    }
}
