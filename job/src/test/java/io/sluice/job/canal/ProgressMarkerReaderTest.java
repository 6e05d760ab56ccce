package io.sluice.job.canal;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

import io.sluice.serializers.canal.CanalBinaryEncoder;
import io.sluice.serializers.canal.CanalFlatEncoder;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import io.sluice.serializers.progress.ProgressMarker;
import io.sluice.serializers.progress.ProgressMarkerEncoder;
import org.junit.jupiter.api.Test;

import java.sql.Types;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Markers are told from Canal's messages in both formats, and their fields read. */
class ProgressMarkerReaderTest {

    private static final ProgressMarker MARKER =
            new ProgressMarker(9, "0-1-77", "mysql-bin.000002", 1234, 1, 1_700_000_000_000L, 3);

    @Test
    void readsFlatAndBinaryMarkers() throws Exception {
        for (byte[] value :
                List.of(
                        ProgressMarkerEncoder.flat(MARKER, 1),
                        ProgressMarkerEncoder.binary(MARKER))) {
            JsonNode marker = ProgressMarkerReader.marker(value);
            assertThat(marker).isNotNull();
            assertThat(marker.path("checkpointId").asLong()).isEqualTo(9);
            assertThat(marker.path("binlogFile").asText()).isEqualTo("mysql-bin.000002");
            assertThat(marker.path("binlogPosition").asLong()).isEqualTo(1234);
            assertThat(marker.path("messages").asLong()).isEqualTo(3);
        }
    }

    @Test
    void canalRowsAreNotMarkers() throws Exception {
        TableSchema schema =
                TableSchema.builder("shop", "items")
                        .column("id", "int(11)", Types.INTEGER, true)
                        .build();
        List<ChangeEvent> insert =
                List.of(
                        ChangeEvent.builder(schema, ChangeType.INSERT)
                                .after(new RowImage.Builder().append(1).build())
                                .binlog("mysql-bin.000002", 4, 0)
                                .build());
        assertThat(ProgressMarkerReader.marker(new CanalFlatEncoder().encode(insert, 1, 1)))
                .isNull();
        assertThat(ProgressMarkerReader.marker(new CanalBinaryEncoder().encode(insert, 1, 1)))
                .isNull();
    }
}
