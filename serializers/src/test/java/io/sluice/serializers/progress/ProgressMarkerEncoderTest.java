package io.sluice.serializers.progress;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.protocol.CanalEntry.Entry;
import com.alibaba.otter.canal.protocol.CanalEntry.EntryType;
import com.alibaba.otter.canal.protocol.CanalEntry.Pair;
import com.alibaba.otter.canal.protocol.CanalEntry.TransactionEnd;
import com.alibaba.otter.canal.protocol.FlatMessage;
import com.alibaba.otter.canal.protocol.Message;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Canal's own classes read both marker encodings, and a reader of rows can tell and skip them. */
class ProgressMarkerEncoderTest {

    private static final ProgressMarker MARKER =
            new ProgressMarker(
                    42, "0-1-1234", "mysql-bin.000003", 98765, 2, 1_700_000_000_000L, 17);

    @Test
    void flatMarkerIsAFlatMessageOfTypeProgressWithNoRows() {
        byte[] bytes = ProgressMarkerEncoder.flat(MARKER, 1_700_000_000_500L);

        FlatMessage message = JSON.parseObject(bytes, FlatMessage.class);
        assertThat(message.getType()).isEqualTo("PROGRESS");
        assertThat(message.getIsDdl()).isFalse();
        assertThat(message.getData()).isNull();
        assertThat(message.getDatabase()).isEmpty();
        assertThat(message.getTable()).isEmpty();
        assertThat(message.getEs()).isEqualTo(1_700_000_000_000L);
        assertThat(message.getTs()).isEqualTo(1_700_000_000_500L);
        assertThat(message.getGtid()).isEqualTo("0-1-1234");

        JSONObject progress = JSON.parseObject(bytes).getJSONObject("sluiceProgress");
        assertThat(progress.getLongValue("checkpointId")).isEqualTo(42);
        assertThat(progress.getString("binlogFile")).isEqualTo("mysql-bin.000003");
        assertThat(progress.getLongValue("binlogPosition")).isEqualTo(98765);
        assertThat(progress.getIntValue("rowInEvent")).isEqualTo(2);
        assertThat(progress.getLongValue("executeTime")).isEqualTo(1_700_000_000_000L);
        assertThat(progress.getLongValue("messages")).isEqualTo(17);
        assertThat(progress.getString("gtid")).isEqualTo("0-1-1234");
    }

    @Test
    void binaryMarkerIsATransactionEndEntryCanalsDeserializerReads() throws Exception {
        Message message =
                CanalMessageDeserializer.deserializer(ProgressMarkerEncoder.binary(MARKER));

        List<Entry> entries = message.getEntries();
        assertThat(entries).hasSize(1);
        Entry entry = entries.get(0);
        assertThat(entry.getEntryType()).isEqualTo(EntryType.TRANSACTIONEND);
        assertThat(entry.getHeader().getLogfileName()).isEqualTo("mysql-bin.000003");
        assertThat(entry.getHeader().getLogfileOffset()).isEqualTo(98765);
        assertThat(entry.getHeader().getExecuteTime()).isEqualTo(1_700_000_000_000L);
        assertThat(entry.getHeader().getGtid()).isEqualTo("0-1-1234");
        Pair property = entry.getHeader().getProps(0);
        assertThat(property.getKey()).isEqualTo("sluiceProgress");
        assertThat(JSON.parseObject(property.getValue()))
                .isEqualTo(JSON.parseObject(MARKER.json()));

        TransactionEnd end = TransactionEnd.parseFrom(entry.getStoreValue());
        assertThat(end.getTransactionId()).isEqualTo("42");
        assertThat(end.getProps(0).getKey()).isEqualTo("sluiceProgress");
    }

    @Test
    void positionsCompareByFileThenPositionThenRow() {
        assertThat(MARKER.comparePosition("mysql-bin.000003", 98765, 2)).isZero();
        assertThat(MARKER.comparePosition("mysql-bin.000003", 98765, 3)).isNegative();
        assertThat(MARKER.comparePosition("mysql-bin.000003", 98000, 9)).isPositive();
        assertThat(MARKER.comparePosition("mysql-bin.000004", 4, 0)).isNegative();
    }

    @Test
    void quotesTextInJson() {
        ProgressMarker odd = new ProgressMarker(1, "a\"b\\c", "f", 4, 0, 0, 0);
        assertThat(JSON.parseObject(odd.json()).getString("gtid")).isEqualTo("a\"b\\c");
    }
}
