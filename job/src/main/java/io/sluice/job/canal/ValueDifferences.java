package io.sluice.job.canal;

import org.apache.flink.annotation.Internal;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which documented difference a differing value or {@code sqlType} is, for canal-diff and for
 * CanalSideBySideITCase alike.
 */
@Internal
public final class ValueDifferences {

    private static final DateTimeFormatter DATETIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSSSSS][.SSS]");

    /** The sqlType pairs Canal switches between with the values (bigint unsigned, SET, JSON). */
    private static final Set<String> VALUE_DEPENDENT_SQL_TYPES =
            Set.of("3|-5", "-5|3", "-7|2004", "2004|-7", "12|1111", "1111|12");

    /** Canal's sqlType for an unsigned value beyond the signed range, and the declared type's. */
    private static final Set<String> UNSIGNED_WIDENED = Set.of("5|-6", "4|5", "-5|4", "3|-5");

    /** A display width, which Canal keeps only as the DDL's text has it. */
    private static final Pattern MARIADB_GTID = Pattern.compile("\\d+-\\d+-\\d+");

    /** One MySQL transaction's GTID, {@code uuid:n}. */
    private static final Pattern MYSQL_GTID =
            Pattern.compile("[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}:\\d+");

    private static final Pattern NUMBER = Pattern.compile("-?\\d+");

    private static final Pattern WIDTH =
            Pattern.compile("^(tinyint|smallint|mediumint|int|bigint|year)\\(\\d+\\)");

    private ValueDifferences() {}

    /**
     * Whether two {@code mysqlType} texts differ only in what the source of Canal's schema changes
     * (case, display widths, the aliases BOOLEAN and, on MariaDB, JSON): {@link
     * DeliberateDifference#SCHEMA_SOURCE}.
     */
    public static boolean sameServerForm(String canal, String sluice) {
        return serverForm(canal).equals(serverForm(sluice));
    }

    private static String serverForm(String type) {
        String t = type.toLowerCase();
        if (t.equals("boolean") || t.equals("bool")) {
            t = "tinyint(1)";
        } else if (t.equals("json")) {
            t = "longtext";
        }
        return WIDTH.matcher(t).replaceFirst("$1");
    }

    /**
     * Whether Canal's and Sluice's sqlType of a column of {@code mysqlType} differ only because
     * Canal's changes with the value ({@link DeliberateDifference#SQL_TYPE}).
     */
    public static boolean valueDependentSqlType(String mysqlType, String canal, String sluice) {
        String pair = canal + "|" + sluice;
        return VALUE_DEPENDENT_SQL_TYPES.contains(pair)
                || mysqlType.toLowerCase().contains("unsigned") && UNSIGNED_WIDENED.contains(pair);
    }

    /**
     * Whether Canal's and Sluice's {@code gtid} differ only as on MariaDB: Canal's empty, Sluice's
     * the transaction's {@code domain-server-seq} ({@link DeliberateDifference#MARIADB_GTID}).
     */
    public static boolean mariaDbGtid(String canal, String sluice) {
        return canal != null
                && canal.isEmpty()
                && sluice != null
                && MARIADB_GTID.matcher(sluice).matches();
    }

    /**
     * Whether Canal's and Sluice's {@code gtid} differ only as on MySQL: Canal's empty (no {@code
     * canal.instance.gtidon}) or the executed GTID set, Sluice's the transaction's {@code uuid:n}
     * ({@link DeliberateDifference#MYSQL_GTID}).
     */
    public static boolean mySqlGtid(String canal, String sluice) {
        if (canal == null || sluice == null || !MYSQL_GTID.matcher(sluice).matches()) {
            return false;
        }
        String uuid = sluice.substring(0, sluice.indexOf(':'));
        return canal.isEmpty() || canal.toLowerCase().contains(uuid.toLowerCase() + ":");
    }

    /**
     * Whether a rows entry's binary {@code logfileOffset} differs only as documented ({@link
     * DeliberateDifference#ROW_OFFSET}): inside a MariaDB 11.4 transaction Canal's is negative and
     * Sluice's the transaction's start, before its rows events (on MySQL both are the rows event's
     * own start).
     */
    public static boolean rowOffset(String canal, String sluice) {
        if (canal == null
                || sluice == null
                || !NUMBER.matcher(canal).matches()
                || !NUMBER.matcher(sluice).matches()
                || sluice.startsWith("-")) {
            return false;
        }
        return canal.startsWith("-") || Long.parseLong(sluice) < Long.parseLong(canal);
    }

    /** The documented difference a differing value of a {@code mysqlType} column is, or null. */
    public static DeliberateDifference valueDifference(
            String mysqlType, String canal, String sluice) {
        if (canal == null || sluice == null) {
            return null;
        }
        String type = mysqlType.toLowerCase();
        if (type.startsWith("binary(")
                && sluice.length() > canal.length()
                && sluice.startsWith(canal)
                && sluice.substring(canal.length()).chars().allMatch(ch -> ch == 0)) {
            return DeliberateDifference.BINARY_PADDING;
        }
        if (type.startsWith("decimal") && numericallyEqual(canal, sluice)) {
            return DeliberateDifference.DECIMAL_SCALE;
        }
        if (canal.indexOf('\ufffd') >= 0 && latin1AsUtf8(sluice).equals(canal)) {
            return DeliberateDifference.LATIN1_TEXT;
        }
        if (type.startsWith("timestamp") && zoneShift(canal, sluice)) {
            return DeliberateDifference.TIMESTAMP_ZONE;
        }
        return null;
    }

    private static boolean numericallyEqual(String a, String b) {
        try {
            return new BigDecimal(a).compareTo(new BigDecimal(b)) == 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** What Canal makes of latin1 text: each non-ASCII character, one byte, undecodable. */
    private static String latin1AsUtf8(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.chars().forEach(c -> out.append(c < 0x80 ? (char) c : '\ufffd'));
        return out.toString();
    }

    /** The same instant written in two zones: a whole number of quarter hours apart. */
    private static boolean zoneShift(String a, String b) {
        try {
            Duration shift =
                    Duration.between(
                            LocalDateTime.parse(a, DATETIME), LocalDateTime.parse(b, DATETIME));
            return !shift.isZero()
                    && shift.abs().compareTo(Duration.ofHours(26)) <= 0
                    && shift.toSeconds() % (15 * 60) == 0;
        } catch (DateTimeParseException e) {
            return false;
        }
    }
}
