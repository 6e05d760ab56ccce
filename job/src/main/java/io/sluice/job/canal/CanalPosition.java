package io.sluice.job.canal;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.functions.source.StartupMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Where a running Canal instance has reached: the cursor its file meta manager keeps in {@code
 * conf/<destination>/meta.dat} (JSON: {@code clientDatas[].cursor.postion} with {@code
 * journalName}, {@code position}, {@code timestamp}, {@code gtid}; Canal spells it "postion").
 */
final class CanalPosition {

    private final String file;
    private final long offset;
    private final String gtid;

    private CanalPosition(String file, long offset, String gtid) {
        this.file = file;
        this.offset = offset;
        this.gtid = gtid;
    }

    static CanalPosition read(Path metaDat, boolean useGtid) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readString(metaDat));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(
                    "Canal's meta file '" + metaDat + "' does not exist", e);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "Canal's meta file '" + metaDat + "' is not JSON: " + e.getMessage(), e);
        }
        JsonNode clients = root == null ? null : root.path("clientDatas");
        if (clients == null || clients.size() != 1) {
            throw new IllegalArgumentException(
                    "Canal's meta file '"
                            + metaDat
                            + "' must hold one client's cursor (clientDatas), but holds "
                            + (clients == null ? 0 : clients.size()));
        }
        JsonNode position = clients.get(0).path("cursor").path("postion");
        String file = position.path("journalName").asText("");
        long offset = position.path("position").asLong(-1);
        if (file.isEmpty() || offset < 0) {
            throw new IllegalArgumentException(
                    "Canal's meta file '"
                            + metaDat
                            + "' has no cursor position (clientDatas[0].cursor.postion"
                            + " .journalName and .position)");
        }
        String gtid = useGtid ? position.path("gtid").asText("") : "";
        return new CanalPosition(file, offset, gtid);
    }

    void writeTo(SluiceYaml yaml) {
        if (!gtid.isEmpty()) {
            yaml.set(
                    "source.startup.mode",
                    StartupMode.GTID.toString(),
                    "Where Canal has reached (its meta.dat cursor, GTID mode).");
            yaml.set("source.startup.gtid-set", gtid, "From meta.dat.");
            return;
        }
        yaml.set(
                "source.startup.mode",
                StartupMode.BINLOG_POSITION.toString(),
                "Where Canal has reached: its meta.dat cursor (the last position its producer"
                        + " acknowledged; the transaction there may come again).");
        yaml.set("source.startup.binlog-file", file, "From meta.dat.");
        yaml.set("source.startup.binlog-position", String.valueOf(offset), "From meta.dat.");
    }
}
