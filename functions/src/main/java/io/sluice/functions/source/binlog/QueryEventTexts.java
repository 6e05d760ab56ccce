package io.sluice.functions.source.binlog;

import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import com.mysql.cj.CharsetMapping;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The binlog client's query event parser with the texts decoded in the binlog's charsets, not the
 * JVM's default (the client's {@code readString}): the statement in the charset of the session that
 * ran it ({@code character_set_client}, from the event's {@code Q_CHARSET_CODE} status variable;
 * UTF-8 when the event has none or names a charset Java lacks) and the default database as UTF-8,
 * the server's charset for names. A DDL statement's text and its database name are what the reader
 * applies to its schemas, so a wrong decoding names a table that does not exist.
 */
final class QueryEventTexts implements EventDataDeserializer<QueryEventData> {

    /** Status variable codes (MySQL's and MariaDB's {@code Q_*_CODE}) and their value lengths. */
    private static final int FLAGS2 = 0;

    private static final int SQL_MODE = 1;
    private static final int CATALOG = 2;
    private static final int AUTO_INCREMENT = 3;
    private static final int CHARSET = 4;
    private static final int TIME_ZONE = 5;
    private static final int CATALOG_NZ = 6;
    private static final int LC_TIME_NAMES = 7;
    private static final int CHARSET_DATABASE = 8;
    private static final int TABLE_MAP_FOR_UPDATE = 9;
    private static final int MASTER_DATA_WRITTEN = 10;
    private static final int INVOKER = 11;
    private static final int UPDATED_DB_NAMES = 12;
    private static final int MICROSECONDS = 13;

    /** Q_UPDATED_DB_NAMES with this count lists no names (OVER_MAX_DBS_IN_EVENT_MTS). */
    private static final int TOO_MANY_DBS = 254;

    /**
     * Bytes after the status variables' length that a query event lacks: an Execute_load_query
     * event (LOAD DATA logged as a statement) has the file id, the file name's start and end in the
     * text, and the duplicate handling there (4 + 4 + 4 + 1).
     */
    private static final int LOAD_POST_HEADER = 13;

    private final int extraPostHeader;

    private int lastCollation = -1;
    private Charset lastCharset = StandardCharsets.UTF_8;

    /** A query event's text. */
    QueryEventTexts() {
        this(0);
    }

    private QueryEventTexts(int extraPostHeader) {
        this.extraPostHeader = extraPostHeader;
    }

    /** An Execute_load_query event's statement, the LOAD DATA as the session wrote it. */
    static QueryEventTexts ofExecuteLoadQuery() {
        return new QueryEventTexts(LOAD_POST_HEADER);
    }

    @Override
    public QueryEventData deserialize(ByteArrayInputStream in) throws IOException {
        QueryEventData data = new QueryEventData();
        data.setThreadId(in.readLong(4));
        data.setExecutionTime(in.readLong(4));
        int databaseLength = in.read();
        data.setErrorCode(in.readInteger(2));
        int statusLength = in.readInteger(2);
        in.skip(extraPostHeader);
        byte[] status = in.read(statusLength);
        data.setDatabase(new String(in.read(databaseLength), StandardCharsets.UTF_8));
        in.skip(1); // the database name's terminating zero
        data.setSql(new String(in.read(in.available()), charset(clientCollation(status))));
        return data;
    }

    /** The Java charset of a collation id; UTF-8 for none (-1) or one Java lacks. */
    private Charset charset(int collation) {
        if (collation != lastCollation) {
            String java =
                    collation < 0
                            ? null
                            : CharsetMapping.getStaticJavaEncodingForCollationIndex(collation);
            lastCharset =
                    java != null && Charset.isSupported(java)
                            ? Charset.forName(java)
                            : StandardCharsets.UTF_8;
            lastCollation = collation;
        }
        return lastCharset;
    }

    /**
     * The collation id of {@code character_set_client} in the status variables, -1 if they hold
     * none before a code this does not know (servers write the codes in a fixed order, the charset
     * among the first).
     */
    static int clientCollation(byte[] status) {
        try {
            return clientCollationAt(status);
        } catch (ArrayIndexOutOfBoundsException e) {
            return -1; // a variable that ends past the status block: none read
        }
    }

    private static int clientCollationAt(byte[] status) {
        int at = 0;
        while (at < status.length) {
            int code = status[at++] & 0xff;
            switch (code) {
                case CHARSET:
                    return at + 2 <= status.length
                            ? (status[at] & 0xff) | (status[at + 1] & 0xff) << 8
                            : -1;
                case FLAGS2:
                case MASTER_DATA_WRITTEN:
                case AUTO_INCREMENT:
                    at += 4;
                    break;
                case SQL_MODE:
                case TABLE_MAP_FOR_UPDATE:
                    at += 8;
                    break;
                case CATALOG:
                    at += 1 + (status[at] & 0xff) + 1;
                    break;
                case TIME_ZONE:
                case CATALOG_NZ:
                    at += 1 + (status[at] & 0xff);
                    break;
                case LC_TIME_NAMES:
                case CHARSET_DATABASE:
                    at += 2;
                    break;
                case INVOKER:
                    at += 1 + (status[at] & 0xff); // user
                    at += 1 + (status[at] & 0xff); // host
                    break;
                case UPDATED_DB_NAMES:
                    int count = status[at++] & 0xff;
                    for (int i = 0; count != TOO_MANY_DBS && i < count; i++) {
                        while (at < status.length && status[at] != 0) {
                            at++;
                        }
                        at++;
                    }
                    break;
                case MICROSECONDS:
                    at += 3;
                    break;
                default:
                    return -1;
            }
        }
        return -1;
    }
}
