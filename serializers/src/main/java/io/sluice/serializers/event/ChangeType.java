package io.sluice.serializers.event;

/** What a change does, with the number Canal's protobuf {@code EventType} gives it. */
public enum ChangeType {
    INSERT(1),
    UPDATE(2),
    DELETE(3),
    CREATE(4),
    ALTER(5),
    ERASE(6),
    QUERY(7),
    TRUNCATE(8),
    RENAME(9),
    CINDEX(10),
    DINDEX(11);

    private static final ChangeType[] VALUES = values();

    private final int canalNumber;

    ChangeType(int canalNumber) {
        this.canalNumber = canalNumber;
    }

    /** The value of Canal's {@code CanalEntry.EventType} for this type. */
    public int canalNumber() {
        return canalNumber;
    }

    /** Whether this is a row change (INSERT, UPDATE, DELETE) rather than a statement. */
    public boolean isRow() {
        return this == INSERT || this == UPDATE || this == DELETE;
    }

    /** The type with the given {@link #ordinal()}, for compact serialization. */
    public static ChangeType ofOrdinal(int ordinal) {
        if (ordinal < 0 || ordinal >= VALUES.length) {
            throw new IllegalArgumentException("No ChangeType has ordinal " + ordinal);
        }
        return VALUES[ordinal];
    }
}
