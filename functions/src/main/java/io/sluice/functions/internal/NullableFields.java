package io.sluice.functions.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

import java.io.IOException;

/** The nullable fields Sluice's serializers share: byte arrays and strings. */
@Internal
public final class NullableFields {

    private NullableFields() {}

    /** Length (-1 for null), then the bytes. */
    public static void writeBytes(byte[] bytes, DataOutputView out) throws IOException {
        out.writeInt(bytes == null ? -1 : bytes.length);
        if (bytes != null) {
            out.write(bytes);
        }
    }

    public static byte[] readBytes(DataInputView in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }

    /** A presence flag, then the string. */
    public static void writeString(String value, DataOutputView out) throws IOException {
        out.writeBoolean(value != null);
        if (value != null) {
            StringValue.writeString(value, out);
        }
    }

    public static String readString(DataInputView in) throws IOException {
        return in.readBoolean() ? StringValue.readString(in) : null;
    }
}
