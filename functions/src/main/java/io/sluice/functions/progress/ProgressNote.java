package io.sluice.functions.progress;

import org.apache.flink.annotation.Internal;

import io.sluice.serializers.event.ChangeEvent;

/**
 * What the partition owners learn beside the messages to write progress markers, on a broadcast
 * edge: either a source position (the last binlog change a source subtask had handed on at a
 * checkpoint barrier) or the name of a topic a route subtask writes to. A Flink POJO: public
 * fields, so its serializer is Flink's own and evolves with it.
 */
@Internal
public final class ProgressNote {

    /** A topic name, or null for a position. */
    public String topic;

    public String gtid = "";
    public String binlogFile = "";
    public long binlogPosition;
    public int rowInEvent;
    public long executeTime;

    public ProgressNote() {}

    /** A route subtask writes to {@code topic}. */
    public static ProgressNote topic(String topic) {
        ProgressNote note = new ProgressNote();
        note.topic = topic;
        return note;
    }

    /** The position of {@code change}, a binlog change. */
    public static ProgressNote positionOf(ChangeEvent change) {
        ProgressNote note = new ProgressNote();
        note.gtid = change.gtid();
        note.binlogFile = change.binlogFile();
        note.binlogPosition = change.binlogPosition();
        note.rowInEvent = change.rowInEvent();
        note.executeTime = change.executeTime();
        return note;
    }

    public boolean isTopic() {
        return topic != null;
    }

    /** Whether this position is after {@code other}'s, in binlog order (null is before all). */
    public boolean isAfter(ProgressNote other) {
        if (other == null) {
            return true;
        }
        int byFile = binlogFile.compareTo(other.binlogFile);
        if (byFile != 0) {
            return byFile > 0;
        }
        if (binlogPosition != other.binlogPosition) {
            return binlogPosition > other.binlogPosition;
        }
        return rowInEvent > other.rowInEvent;
    }

    @Override
    public String toString() {
        return isTopic()
                ? "topic " + topic
                : binlogFile + ":" + binlogPosition + "#" + rowInEvent + " gtid " + gtid;
    }
}
