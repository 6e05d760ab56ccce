package io.sluice.job.canal;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

import io.sluice.serializers.canal.proto.ProtoCanalTags;

import java.io.IOException;

/**
 * Tells a Sluice progress marker (docs/pipeline.md, "Progress markers") from Canal's messages, in
 * either format, and returns its {@code sluiceProgress} fields: in flat JSON a message of {@code
 * "type":"PROGRESS"}; in binary a packet whose entry is a TRANSACTIONEND with a {@code
 * sluiceProgress} header property.
 */
public final class ProgressMarkerReader {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROPERTY = "sluiceProgress";
    private static final int ENTRY_TYPE_TRANSACTIONEND = 3;

    private ProgressMarkerReader() {}

    /** The marker's fields, or null when {@code value} is not a marker. */
    public static JsonNode marker(byte[] value) throws IOException {
        if (value.length > 0 && value[0] == '{') {
            JsonNode message = JSON.readTree(value);
            return "PROGRESS".equals(message.path("type").asText()) ? message.get(PROPERTY) : null;
        }
        ProtoReader packet = new ProtoReader(value);
        while (packet.more()) {
            if (packet.tag() == ProtoCanalTags.PACKET_BODY) {
                String json = fromMessages(packet.message());
                return json == null ? null : JSON.readTree(json);
            }
            packet.skip();
        }
        return null;
    }

    private static String fromMessages(ProtoReader messages) {
        while (messages.more()) {
            if (messages.tag() == ProtoCanalTags.MESSAGES_MESSAGES) {
                String json = fromEntry(messages.message());
                if (json != null) {
                    return json;
                }
            } else {
                messages.skip();
            }
        }
        return null;
    }

    private static String fromEntry(ProtoReader entry) {
        ProtoReader header = null;
        long type = 0;
        while (entry.more()) {
            int tag = entry.tag();
            if (tag == ProtoCanalTags.ENTRY_HEADER) {
                header = entry.message();
            } else if (tag == ProtoCanalTags.ENTRY_ENTRY_TYPE) {
                type = entry.varint();
            } else {
                entry.skip();
            }
        }
        if (type != ENTRY_TYPE_TRANSACTIONEND || header == null) {
            return null;
        }
        while (header.more()) {
            if (header.tag() == ProtoCanalTags.HEADER_PROPS) {
                ProtoReader pair = header.message();
                String key = null;
                String value = null;
                while (pair.more()) {
                    int tag = pair.tag();
                    if (tag == ProtoCanalTags.PAIR_KEY) {
                        key = pair.string();
                    } else if (tag == ProtoCanalTags.PAIR_VALUE) {
                        value = pair.string();
                    } else {
                        pair.skip();
                    }
                }
                if (PROPERTY.equals(key)) {
                    return value;
                }
            } else {
                header.skip();
            }
        }
        return null;
    }
}
