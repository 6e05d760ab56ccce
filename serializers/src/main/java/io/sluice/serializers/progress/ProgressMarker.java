package io.sluice.serializers.progress;

import java.util.Objects;

/**
 * A progress marker: written into a partition at a checkpoint, it says that every change at or
 * before the binlog position it carries that routes to this partition came before it, and none
 * after it. Positions compare by binlog file, then position in the file, then row in the event.
 *
 * @param checkpointId the checkpoint whose transaction holds the marker
 * @param gtid the GTID of the transaction of the last change before the marker ("" without GTIDs)
 * @param binlogFile the binlog file of the last change before the marker
 * @param binlogPosition that change's event position in the file
 * @param rowInEvent that change's row in its event
 * @param executeTime that change's binlog time, epoch milliseconds
 * @param messages messages written to this partition since the previous marker
 */
public record ProgressMarker(
        long checkpointId,
        String gtid,
        String binlogFile,
        long binlogPosition,
        int rowInEvent,
        long executeTime,
        long messages) {

    /** The Canal message type (flat) and header property name (binary) that mark a marker. */
    public static final String TYPE = "PROGRESS";

    /** The property holding the marker's fields, as JSON. */
    public static final String PROPERTY = "sluiceProgress";

    public ProgressMarker {
        Objects.requireNonNull(gtid, "gtid must not be null");
        Objects.requireNonNull(binlogFile, "binlogFile must not be null");
    }

    /** The marker's fields as a JSON object, the value of {@link #PROPERTY}. */
    public String json() {
        return "{\"checkpointId\":"
                + checkpointId
                + ",\"gtid\":"
                + quote(gtid)
                + ",\"binlogFile\":"
                + quote(binlogFile)
                + ",\"binlogPosition\":"
                + binlogPosition
                + ",\"rowInEvent\":"
                + rowInEvent
                + ",\"executeTime\":"
                + executeTime
                + ",\"messages\":"
                + messages
                + "}";
    }

    /** Orders positions as the binlog does; negative when this marker's is earlier. */
    public int comparePosition(String file, long position, int row) {
        int byFile = binlogFile.compareTo(file);
        if (byFile != 0) {
            return byFile;
        }
        int byPosition = Long.compare(binlogPosition, position);
        return byPosition != 0 ? byPosition : Integer.compare(rowInEvent, row);
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
