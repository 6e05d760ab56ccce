package io.sluice.job.canal;

import org.apache.flink.annotation.Internal;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
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

    /** Base64 as Sluice writes bytes in MySQL JSON. */
    private static final Pattern BASE64 =
            Pattern.compile("([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?");

    private static final Pattern WIDTH =
            Pattern.compile("^(tinyint|smallint|mediumint|int|bigint|year)\\(\\d+\\)");

    private ValueDifferences() {}

    /**
     * Whether two {@code mysqlType} texts differ only in what the source of Canal's schema changes
     * (case, display widths, the aliases BOOLEAN, GEOMETRYCOLLECTION (MySQL 8's geomcollection)
     * and, on MariaDB, JSON): {@link DeliberateDifference#SCHEMA_SOURCE}.
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
        } else if (t.equals("geometrycollection")) {
            t = "geomcollection";
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
        if ((type.equals("uuid") || type.equals("inet4") || type.equals("inet6"))
                && canalStoredBytes(type, canal, sluice)) {
            return DeliberateDifference.MARIADB_UUID_INET;
        }
        if (type.startsWith("decimal") && numericallyEqual(canal, sluice)) {
            return DeliberateDifference.DECIMAL_SCALE;
        }
        if (type.equals("json")) {
            return jsonDifference(canal, sluice);
        }
        if (canal.indexOf('\ufffd') >= 0 && latin1AsUtf8(sluice).equals(canal)) {
            return DeliberateDifference.LATIN1_TEXT;
        }
        if (type.startsWith("timestamp") && zoneShift(canal, sluice)) {
            return DeliberateDifference.TIMESTAMP_ZONE;
        }
        return null;
    }

    /**
     * Whether Canal's text of a MariaDB UUID, INET4 or INET6 value is the column's stored bytes, as
     * the binlog holds them (trailing zero bytes dropped), decoded as characters, where Sluice's is
     * the text {@code SELECT} shows: {@link DeliberateDifference#MARIADB_UUID_INET}.
     */
    static boolean canalStoredBytes(String type, String canal, String sluice) {
        byte[] stored = storedBytes(type, sluice);
        if (stored == null) {
            return false;
        }
        int length = stored.length;
        while (length > 0 && stored[length - 1] == 0) {
            length--;
        }
        for (int n : new int[] {length, stored.length}) {
            for (java.nio.charset.Charset charset :
                    List.of(StandardCharsets.ISO_8859_1, StandardCharsets.UTF_8)) {
                if (canal.equals(new String(stored, 0, n, charset))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The bytes the binlog holds for the text of a UUID, INET4 or INET6 value (before it drops
     * trailing zero bytes); null if the text is not one.
     */
    static byte[] storedBytes(String type, String text) {
        try {
            switch (type) {
                case "uuid":
                    {
                        String hex = text.replace("-", "");
                        if (hex.length() != 32 || text.length() != 36) {
                            return null;
                        }
                        return java.util.HexFormat.of().parseHex(hex);
                    }
                case "inet4":
                    {
                        String[] parts = text.split("\\.", -1);
                        if (parts.length != 4) {
                            return null;
                        }
                        byte[] b = new byte[4];
                        for (int i = 0; i < 4; i++) {
                            b[i] = (byte) Integer.parseInt(parts[i]);
                        }
                        return b;
                    }
                default:
                    {
                        if (text.indexOf(':') < 0) {
                            return null;
                        }
                        byte[] address = java.net.InetAddress.getByName(text).getAddress();
                        if (address.length == 4) { // ::ffff:a.b.c.d, which Java makes IPv4
                            byte[] mapped = new byte[16];
                            mapped[10] = (byte) 0xff;
                            mapped[11] = (byte) 0xff;
                            System.arraycopy(address, 0, mapped, 12, 4);
                            return mapped;
                        }
                        return address;
                    }
            }
        } catch (IllegalArgumentException | java.net.UnknownHostException e) {
            return null;
        }
    }

    /**
     * The documented difference between Canal's and Sluice's text of one MySQL JSON document, or
     * null: Sluice's text is read token by token, and each token must be in Canal's at the same
     * place, as it is or as Canal writes that value. A string Canal cuts at U+0000, a key it does
     * not escape, or bytes (Sluice's base64) that it writes as their UTF-8 decoding cut at the
     * first zero byte are {@link DeliberateDifference#JSON_TEXT}; a number Canal writes with
     * another scale, {@link DeliberateDifference#DECIMAL_SCALE}. A document with both is the first.
     */
    static DeliberateDifference jsonDifference(String canal, String sluice) {
        boolean text = false;
        boolean scale = false;
        int c = 0;
        int s = 0;
        while (s < sluice.length()) {
            char ch = sluice.charAt(s);
            if (ch == '"') {
                int end = stringEnd(sluice, s);
                if (end < 0) {
                    return null;
                }
                String token = sluice.substring(s, end);
                if (canal.startsWith(token, c)) {
                    c += token.length();
                } else {
                    String value = unescape(token);
                    boolean key = sluice.startsWith(":", end);
                    String written = null;
                    for (String candidate : canalStrings(value, key)) {
                        if (canal.startsWith(candidate, c)) {
                            written = candidate;
                            break;
                        }
                    }
                    if (written == null) {
                        return null;
                    }
                    text = true;
                    c += written.length();
                }
                s = end;
            } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
                int end = numberEnd(sluice, s);
                int canalEnd = numberEnd(canal, c);
                String number = sluice.substring(s, end);
                String canalNumber = canal.substring(c, canalEnd);
                if (!number.equals(canalNumber)) {
                    if (!numericallyEqual(canalNumber, number)) {
                        return null;
                    }
                    scale = true;
                }
                s = end;
                c = canalEnd;
            } else {
                if (c >= canal.length() || canal.charAt(c) != ch) {
                    return null;
                }
                s++;
                c++;
            }
        }
        if (c != canal.length()) {
            return null;
        }
        return text
                ? DeliberateDifference.JSON_TEXT
                : scale ? DeliberateDifference.DECIMAL_SCALE : null;
    }

    /** Canal's texts for a JSON string Sluice writes: a key as it is, a value, or bytes. */
    private static List<String> canalStrings(String value, boolean key) {
        List<String> texts = new ArrayList<>(2);
        String cut = cutAtZero(value);
        texts.add("\"" + (key ? cut : canalEscaped(cut)) + "\"");
        if (!key && BASE64.matcher(value).matches()) {
            byte[] bytes = Base64.getDecoder().decode(value);
            int zero = 0;
            while (zero < bytes.length && bytes[zero] != 0) {
                zero++;
            }
            String decoded = new String(bytes, 0, zero, StandardCharsets.UTF_8);
            texts.add("\"" + canalEscaped(decoded) + "\"");
        }
        return texts;
    }

    private static String cutAtZero(String value) {
        int zero = value.indexOf('\0');
        return zero < 0 ? value : value.substring(0, zero);
    }

    /** A string value as Canal's JsonConversion escapes it (so does Sluice). */
    private static String canalEscaped(String value) {
        StringBuilder out = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch == '"' || ch == '\\') {
                out.append('\\').append(ch);
            } else if (ch == '\n') {
                out.append("\\n");
            } else if (ch == '\r') {
                out.append("\\r");
            } else if (ch == '\t') {
                out.append("\\t");
            } else if (ch < 0x20 || (ch >= 0x7f && ch <= 0xa0)) {
                out.append(String.format("\\u%04x", (int) ch));
            } else {
                out.append(ch);
            }
        }
        return out.toString();
    }

    /** The index after the JSON string starting at {@code start}, or -1. */
    private static int stringEnd(String json, int start) {
        for (int i = start + 1; i < json.length(); i++) {
            char ch = json.charAt(i);
            if (ch == '\\') {
                i++;
            } else if (ch == '"') {
                return i + 1;
            }
        }
        return -1;
    }

    private static int numberEnd(String json, int start) {
        int i = start;
        while (i < json.length() && "+-.eE0123456789".indexOf(json.charAt(i)) >= 0) {
            i++;
        }
        return i;
    }

    /** The value of a JSON string token, quotes included. */
    private static String unescape(String token) {
        StringBuilder out = new StringBuilder(token.length());
        for (int i = 1; i < token.length() - 1; i++) {
            char ch = token.charAt(i);
            if (ch != '\\') {
                out.append(ch);
                continue;
            }
            char e = token.charAt(++i);
            switch (e) {
                case 'b':
                    out.append('\b');
                    break;
                case 'f':
                    out.append('\f');
                    break;
                case 'n':
                    out.append('\n');
                    break;
                case 'r':
                    out.append('\r');
                    break;
                case 't':
                    out.append('\t');
                    break;
                case 'u':
                    out.append((char) Integer.parseInt(token.substring(i + 1, i + 5), 16));
                    i += 4;
                    break;
                default:
                    out.append(e);
            }
        }
        return out.toString();
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
