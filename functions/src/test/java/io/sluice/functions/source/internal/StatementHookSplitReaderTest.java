package io.sluice.functions.source.internal;

import org.apache.flink.cdc.connectors.mysql.debezium.reader.BinlogSplitReader;
import org.apache.flink.cdc.connectors.mysql.debezium.task.context.StatefulTaskContext;
import org.apache.flink.cdc.connectors.mysql.source.config.MySqlSourceConfig;
import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.reader.MySqlSplitReader;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplit;
import org.apache.flink.cdc.connectors.mysql.source.utils.hooks.SnapshotPhaseHooks;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.source.ChangeEventDeserializationSchema;
import io.sluice.functions.source.MySqlSourceFactory;
import io.sluice.functions.source.MySqlSourceOptions;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A binlog split's arrival gives the split reader a binlog reader whose binlog client has the
 * statement hook, before Debezium's listener (which the reader adds when it starts reading); the
 * reader is the one Flink CDC then reuses, and after Flink CDC dropped it the next binlog split
 * gets a hooked one again. Nothing here connects to a server.
 */
class StatementHookSplitReaderTest {

    @Test
    void aBinlogSplitGetsAHookedBinlogReader() throws Exception {
        Configuration options = new Configuration();
        options.set(MySqlSourceOptions.PASSWORD, "secret");
        options.set(MySqlSourceOptions.TABLES, List.of("shop\\..*"));
        MySqlSourceConfig config =
                MySqlSourceFactory.source(
                                OptionSection.unprefixed(options),
                                new ChangeEventDeserializationSchema(ZoneId.of("UTC")))
                        .config(0);
        StatementHookSplitReader reader =
                new StatementHookSplitReader(
                        config,
                        0,
                        null,
                        new StatementTimes(),
                        SnapshotPhaseHooks.empty(),
                        List.of());
        try {
            assertThat(binlogReader(reader)).isNull();

            reader.handleSplitsChanges(new SplitsAddition<>(List.of(binlogSplit())));
            BinlogSplitReader first = binlogReader(reader);
            assertThat(listeners(first)).hasSize(1).first().isInstanceOf(BinlogStatementHook.class);

            reader.handleSplitsChanges(new SplitsAddition<>(List.of(binlogSplit())));
            assertThat(binlogReader(reader)).as("reused while Flink CDC keeps it").isSameAs(first);

            first.close();
            field(MySqlSplitReader.class, "reusedBinlogReader").set(reader, null);
            reader.handleSplitsChanges(new SplitsAddition<>(List.of(binlogSplit())));
            assertThat(binlogReader(reader)).isNotNull().isNotSameAs(first);
            assertThat(listeners(binlogReader(reader)))
                    .singleElement()
                    .isInstanceOf(BinlogStatementHook.class);
        } finally {
            reader.close();
        }
    }

    private static MySqlSplit binlogSplit() {
        return new MySqlBinlogSplit(
                "binlog-split",
                BinlogOffset.ofBinlogFilePosition("bin.1", 4),
                BinlogOffset.ofNonStopping(),
                new ArrayList<>(),
                new HashMap<>(),
                0);
    }

    private static BinlogSplitReader binlogReader(MySqlSplitReader reader) throws Exception {
        return (BinlogSplitReader) field(MySqlSplitReader.class, "reusedBinlogReader").get(reader);
    }

    private static List<BinaryLogClient.EventListener> listeners(BinlogSplitReader reader)
            throws Exception {
        StatefulTaskContext context =
                (StatefulTaskContext)
                        field(BinlogSplitReader.class, "statefulTaskContext").get(reader);
        return context.getBinaryLogClient().getEventListeners();
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        Field field = type.getDeclaredField(name);
        field.setAccessible(true);
        return field;
    }
}
