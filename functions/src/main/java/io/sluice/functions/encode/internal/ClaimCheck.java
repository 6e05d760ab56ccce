package io.sluice.functions.encode.internal;

import org.apache.flink.annotation.Internal;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.RowImage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Stores full messages through Flink's file systems, each under a name fixed by what identifies its
 * change: topic, table, type, server, binlog position, row in event and row images. A replay of the
 * change after a failure writes the same name again, so the store never holds two copies of one
 * change; a name is written completely before the message that names it can commit.
 */
@Internal
final class ClaimCheck {

    private final String base;
    private final String extension;

    ClaimCheck(String base, String extension) {
        this.base = base;
        this.extension = extension;
    }

    /** Stores {@code value}, the message of {@code change} to {@code topic}; returns its URI. */
    String store(String topic, ChangeEvent change, byte[] value) throws IOException {
        Path path =
                new Path(
                        base
                                + "/"
                                + safe(change.database())
                                + "/"
                                + safe(change.table())
                                + "/"
                                + nameOf(topic, change)
                                + extension);
        FileSystem fs = path.getFileSystem();
        try (FSDataOutputStream out = fs.create(path, FileSystem.WriteMode.OVERWRITE)) {
            out.write(value);
        }
        return path.toUri().toString();
    }

    /** The change's object name: a hash of what identifies it. */
    static String nameOf(String topic, ChangeEvent change) {
        MessageDigest digest = sha256();
        text(digest, topic);
        text(digest, change.database());
        text(digest, change.table());
        text(digest, change.type().name());
        text(digest, change.gtid());
        text(digest, change.binlogFile());
        digest.update(
                ByteBuffer.allocate(24)
                        .putLong(change.serverId())
                        .putLong(change.binlogPosition())
                        .putInt(change.rowInEvent())
                        .array(),
                0,
                20);
        image(digest, change.before());
        image(digest, change.after());
        return HexFormat.of().formatHex(digest.digest(), 0, 16);
    }

    private static void text(MessageDigest digest, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        digest.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
        digest.update(bytes);
    }

    private static void image(MessageDigest digest, RowImage row) {
        if (row == null) {
            digest.update((byte) 0);
            return;
        }
        digest.update((byte) 1);
        ByteBuffer ends = ByteBuffer.allocate(4 * row.ends().length);
        for (int end : row.ends()) {
            ends.putInt(end);
        }
        digest.update(ends.array());
        digest.update(row.utf8());
    }

    /** A path segment: letters, digits, '_', '-' and '$' kept, anything else '_'. */
    private static String safe(String name) {
        return name.replaceAll("[^A-Za-z0-9_$-]", "_");
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JVM has SHA-256", e);
        }
    }
}
