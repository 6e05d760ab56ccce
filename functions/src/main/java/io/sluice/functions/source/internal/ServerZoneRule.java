package io.sluice.functions.source.internal;

import org.apache.flink.annotation.Internal;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Date;
import java.util.TimeZone;

/**
 * When {@code source.server-time-zone} agrees with the server: Flink CDC's rule (its {@code
 * MySqlValidator}, which fails the enumerator otherwise), so that a zone Sluice's start check
 * accepts, Flink CDC accepts too. The server's offset is {@code TIMEDIFF(NOW(), UTC_TIMESTAMP())};
 * it agrees with the zone's offset now within half an hour, or, while the zone is in daylight
 * saving time, with the zone's standard offset (one hour less) within half an hour.
 */
@Internal
public final class ServerZoneRule {

    static final int TOLERANCE_SECONDS = 30 * 60;
    private static final int HOUR_SECONDS = 60 * 60;

    private ServerZoneRule() {}

    /**
     * Whether a server {@code serverOffsetSeconds} ahead of UTC agrees with a zone {@code
     * zoneOffsetSeconds} ahead of UTC, which is in daylight saving time or not.
     */
    public static boolean agrees(
            int serverOffsetSeconds, int zoneOffsetSeconds, boolean zoneInDaylightTime) {
        if (Math.abs(serverOffsetSeconds - zoneOffsetSeconds) <= TOLERANCE_SECONDS) {
            return true;
        }
        return zoneInDaylightTime
                && Math.abs(serverOffsetSeconds - (zoneOffsetSeconds - HOUR_SECONDS))
                        <= TOLERANCE_SECONDS;
    }

    /** {@link #agrees(int, int, boolean)} for {@code zone} now, computed as Flink CDC does. */
    public static boolean agreesNow(int serverOffsetSeconds, ZoneId zone) {
        return agrees(serverOffsetSeconds, offsetNow(zone), inDaylightTimeNow(zone));
    }

    /** The zone's offset from UTC now, in seconds (Flink CDC takes the JVM's local time). */
    public static int offsetNow(ZoneId zone) {
        return zone.getRules().getOffset(LocalDateTime.now()).getTotalSeconds();
    }

    private static boolean inDaylightTimeNow(ZoneId zone) {
        return TimeZone.getTimeZone(zone).inDaylightTime(new Date());
    }

    /** An offset in seconds as UTC+hh:mm. */
    public static String utcOffset(int seconds) {
        int minutes = Math.abs(seconds) / 60;
        return String.format("UTC%s%02d:%02d", seconds < 0 ? "-" : "+", minutes / 60, minutes % 60);
    }
}
