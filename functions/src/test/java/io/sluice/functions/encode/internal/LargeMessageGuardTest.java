package io.sluice.functions.encode.internal;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONObject;
import com.alibaba.otter.canal.client.CanalMessageDeserializer;
import com.alibaba.otter.canal.protocol.CanalEntry;
import com.alibaba.otter.canal.protocol.FlatMessage;
import com.alibaba.otter.canal.protocol.Message;
import io.sluice.functions.config.OptionSection;
import io.sluice.functions.encode.LargeMessageException;
import io.sluice.functions.encode.MessageFormat;
import io.sluice.functions.encode.MessageLimits;
import io.sluice.functions.encode.SinkMessage;
import io.sluice.serializers.canal.ChangeEncoder;
import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Types;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LargeMessageGuardTest {

    private static final TableSchema DOCS =
            TableSchema.builder("shop", "docs")
                    .column("id", "int(11)", Types.INTEGER, true)
                    .column("lang", "varchar(8)", Types.VARCHAR, true)
                    .column("body", "longtext", Types.LONGVARCHAR, false)
                    .build();
    private static final int LIMIT = 10_000;

    @TempDir Path dir;

    @Test
    void aMessageWithinTheLimitPassesAsItIs() {
        Guard guard = guard(MessageFormat.CANAL_FLAT, "sink.large-message.policy=key-only");
        SinkMessage message = guard.encode(insert(1, 100));
        assertThat(guard.check(insert(1, 100), message)).isSameAs(message);
        assertThat(guard.oversized.getCount()).isZero();
    }

    @Test
    void failNamesTableKeySizeLimitAndThePolicyOption() {
        Guard guard = guard(MessageFormat.CANAL_FLAT);
        ChangeEvent big = insert(2, 20_000);
        SinkMessage message = guard.encode(big);
        assertThatThrownBy(() -> guard.check(big, message))
                .isInstanceOf(LargeMessageException.class)
                .hasMessageContaining("a row of shop.docs (key id=2, lang=en)")
                .hasMessageContaining("at mysql-bin.000001:400")
                .hasMessageContaining(
                        "is " + (message.value().length + 4) + " bytes, above the limit of 10000")
                .hasMessageContaining("topic 'docs-topic' (test limit)")
                .hasMessageContaining(
                        "Option 'sink.large-message.policy' is 'fail'. Set it to 'key-only',"
                                + " 'claim-check' (with 'sink.large-message.claim-check.path') or"
                                + " 'dead-letter' (with 'sink.large-message.dead-letter.topic')");
        assertThat(guard.oversized.getCount()).isOne();
    }

    @Test
    void keyOnlyFlatKeepsTheKeyColumnsAndMarksSizeAndLimit() {
        Guard guard = guard(MessageFormat.CANAL_FLAT, "sink.large-message.policy=key-only");
        ChangeEvent big = update(3, 20_000);
        SinkMessage message = guard.encode(big);
        SinkMessage cut = guard.check(big, message);

        assertThat(cut.topic()).isEqualTo("docs-topic");
        assertThat(cut.partition()).isEqualTo(2);
        assertThat(cut.key()).isEqualTo(message.key());
        FlatMessage flat = JSON.parseObject(cut.value(), FlatMessage.class);
        assertThat(flat.getTable()).isEqualTo("docs");
        assertThat(flat.getType()).isEqualTo("UPDATE");
        assertThat(flat.getPkNames()).containsExactly("id", "lang");
        assertThat(flat.getData()).containsExactly(Map.of("id", "3", "lang", "en"));
        assertThat(flat.getMysqlType()).containsOnlyKeys("id", "lang");
        JSONObject marker = JSON.parseObject(cut.value()).getJSONObject("sluiceOversize");
        assertThat(marker.getString("policy")).isEqualTo("key-only");
        assertThat(marker.getLongValue("size")).isEqualTo(message.value().length + 4);
        assertThat(marker.getLongValue("limit")).isEqualTo(LIMIT);
        assertThat(marker.containsKey("claimCheck")).isFalse();
        assertThat(guard.oversized.getCount()).isOne();
    }

    @Test
    void keyOnlyBinaryCarriesTheMarkerAsAHeaderProperty() throws Exception {
        Guard guard = guard(MessageFormat.CANAL_BINARY, "sink.large-message.policy=key-only");
        ChangeEvent big = insert(4, 20_000);
        SinkMessage cut = guard.check(big, guard.encode(big));

        Message message = CanalMessageDeserializer.deserializer(cut.value());
        CanalEntry.Entry entry = message.getEntries().get(0);
        Map<String, String> props = new java.util.HashMap<>();
        entry.getHeader().getPropsList().forEach(p -> props.put(p.getKey(), p.getValue()));
        assertThat(props).containsEntry("rowsCount", "1").containsKey("sluiceOversize");
        assertThat(JSON.parseObject(props.get("sluiceOversize")).getString("policy"))
                .isEqualTo("key-only");
        CanalEntry.RowChange rows = CanalEntry.RowChange.parseFrom(entry.getStoreValue());
        assertThat(rows.getRowDatas(0).getAfterColumnsList())
                .extracting(CanalEntry.Column::getName, CanalEntry.Column::getValue)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("id", "4"),
                        org.assertj.core.groups.Tuple.tuple("lang", "en"));
    }

    @Test
    void claimCheckStoresTheFullMessageUnderANameAReplayOverwrites() throws Exception {
        Guard guard =
                guard(
                        MessageFormat.CANAL_FLAT,
                        "sink.large-message.policy=claim-check",
                        "sink.large-message.claim-check.path=" + dir.toUri());
        ChangeEvent big = insert(5, 20_000);
        SinkMessage message = guard.encode(big);
        SinkMessage cut = guard.check(big, message);

        String uri =
                JSON.parseObject(cut.value())
                        .getJSONObject("sluiceOversize")
                        .getString("claimCheck");
        Path stored = Paths.get(URI.create(uri));
        assertThat(stored.getParent()).isEqualTo(dir.resolve("shop").resolve("docs"));
        assertThat(stored.getFileName().toString()).endsWith(".json");
        assertThat(Files.readAllBytes(stored)).isEqualTo(message.value());
        assertThat(JSON.parseObject(cut.value(), FlatMessage.class).getData())
                .containsExactly(Map.of("id", "5", "lang", "en"));

        // A replay encodes again (another id and ts): same name, new content, still one file.
        SinkMessage again = guard.encode(big);
        SinkMessage cutAgain = guard.check(big, again);
        assertThat(
                        JSON.parseObject(cutAgain.value())
                                .getJSONObject("sluiceOversize")
                                .getString("claimCheck"))
                .isEqualTo(uri);
        assertThat(Files.readAllBytes(stored)).isEqualTo(again.value());
        try (var files = Files.walk(dir)) {
            assertThat(files.filter(Files::isRegularFile)).hasSize(1);
        }
        // Another change of the same row is another file.
        SinkMessage other = guard.check(update(5, 20_000), guard.encode(update(5, 20_000)));
        assertThat(
                        JSON.parseObject(other.value())
                                .getJSONObject("sluiceOversize")
                                .getString("claimCheck"))
                .isNotEqualTo(uri);
    }

    @Test
    void deadLetterSendsTheFullMessageToItsTopic() {
        Guard guard =
                guard(
                        MessageFormat.CANAL_FLAT,
                        "sink.large-message.policy=dead-letter",
                        "sink.large-message.dead-letter.topic=big-rows");
        ChangeEvent big = insert(6, 20_000);
        SinkMessage message = guard.encode(big);
        SinkMessage moved = guard.check(big, message);
        assertThat(moved.topic()).isEqualTo("big-rows");
        assertThat(moved.partition()).isEqualTo(SinkMessage.ANY_PARTITION);
        assertThat(moved.value()).isSameAs(message.value());
        assertThat(moved.key()).isEqualTo(message.key());
    }

    @Test
    void aMessageTooLargeForTheDeadLetterTopicFails() {
        Guard guard =
                guard(
                        MessageFormat.CANAL_FLAT,
                        "sink.large-message.policy=dead-letter",
                        "sink.large-message.dead-letter.topic=big-rows");
        ChangeEvent huge = insert(6, 200_000);
        assertThatThrownBy(() -> guard.check(huge, guard.encode(huge)))
                .isInstanceOf(LargeMessageException.class)
                .hasMessageContaining("topic 'big-rows'")
                .hasMessageContaining("the dead-letter topic too is too large");
    }

    @Test
    void maxBytesLowersTheLimit() {
        Guard guard =
                guard(
                        MessageFormat.CANAL_FLAT,
                        "sink.large-message.policy=key-only",
                        "sink.large-message.max-bytes=2kb");
        ChangeEvent row = insert(7, 5_000);
        SinkMessage cut = guard.check(row, guard.encode(row));
        JSONObject marker = JSON.parseObject(cut.value()).getJSONObject("sluiceOversize");
        assertThat(marker.getLongValue("limit")).isEqualTo(2048);
    }

    @Test
    void anOversizedStatementFailsUnderEveryPolicy() {
        Guard guard = guard(MessageFormat.CANAL_FLAT, "sink.large-message.policy=key-only");
        ChangeEvent ddl =
                ChangeEvent.builder(DOCS, ChangeType.ALTER)
                        .sql("ALTER TABLE docs COMMENT '" + "x".repeat(20_000) + "'")
                        .binlog("mysql-bin.000001", 500, 0)
                        .build();
        assertThatThrownBy(() -> guard.check(ddl, guard.encode(ddl)))
                .isInstanceOf(LargeMessageException.class)
                .hasMessageContaining("a ALTER statement of shop")
                .hasMessageContaining("Statements are never cut down");
    }

    @Test
    void thePolicyOptionsAThePolicyNeedsAreRequired() {
        assertThatThrownBy(
                        () ->
                                settings(
                                        MessageFormat.CANAL_FLAT,
                                        "sink.large-message.policy=claim-check"))
                .hasMessage(
                        "Option 'sink.large-message.claim-check.path' is required when"
                                + " 'sink.large-message.policy' is 'claim-check', but missing");
        assertThatThrownBy(
                        () ->
                                settings(
                                        MessageFormat.CANAL_FLAT,
                                        "sink.large-message.policy=claim-check",
                                        "sink.large-message.claim-check.path=/no/scheme"))
                .hasMessageContaining("must be a URI with a scheme")
                .hasMessageContaining("'/no/scheme'");
        assertThatThrownBy(
                        () ->
                                settings(
                                        MessageFormat.CANAL_FLAT,
                                        "sink.large-message.policy=dead-letter"))
                .hasMessage(
                        "Option 'sink.large-message.dead-letter.topic' is required when"
                                + " 'sink.large-message.policy' is 'dead-letter', but missing");
    }

    // ---------------------------------------------------------------------------------------

    private static ChangeEvent insert(int id, int bodyBytes) {
        return ChangeEvent.builder(DOCS, ChangeType.INSERT)
                .after(row(id, "x".repeat(bodyBytes)))
                .executeTime(1_700_000_000_000L)
                .binlog("mysql-bin.000001", 400, 0)
                .serverId(1)
                .build();
    }

    private static ChangeEvent update(int id, int bodyBytes) {
        return ChangeEvent.builder(DOCS, ChangeType.UPDATE)
                .before(row(id, "y".repeat(bodyBytes)))
                .after(row(id, "x".repeat(bodyBytes)))
                .executeTime(1_700_000_000_000L)
                .binlog("mysql-bin.000001", 450, 0)
                .serverId(1)
                .build();
    }

    private static RowImage row(int id, String body) {
        return new RowImage.Builder().append(id).append("en").append(body).build();
    }

    private static LargeMessageSettings settings(MessageFormat format, String... options) {
        Configuration config = new Configuration();
        for (String option : options) {
            int eq = option.indexOf('=');
            config.setString(option.substring(0, eq), option.substring(eq + 1));
        }
        return LargeMessageSettings.from(
                OptionSection.of(config, "sink."), format, FixedLimits::new);
    }

    private Guard guard(MessageFormat format, String... options) {
        return new Guard(format, settings(format, options));
    }

    /** A guard with its encoder, as one encoding subtask has them. */
    private static final class Guard {
        final ChangeEncoder encoder;
        final LargeMessageGuard guard;
        final Counter oversized = new SimpleCounter();
        long nextId = 1;

        Guard(MessageFormat format, LargeMessageSettings settings) {
            encoder = format.newEncoder(null);
            MetricGroup group =
                    new UnregisteredMetricsGroup() {
                        @Override
                        public MetricGroup addGroup(String key, String value) {
                            assertThat(key).isEqualTo("policy");
                            assertThat(value).isEqualTo(settings.policy.toString());
                            return this;
                        }

                        @Override
                        public Counter counter(String name) {
                            assertThat(name).isEqualTo("oversizedMessages");
                            return oversized;
                        }
                    };
            guard = new LargeMessageGuard(settings, encoder, group);
        }

        SinkMessage encode(ChangeEvent change) {
            byte[] value = encoder.encode(List.of(change), nextId, System.currentTimeMillis());
            return new SinkMessage(
                    "docs-topic",
                    2,
                    "key".getBytes(StandardCharsets.UTF_8),
                    value,
                    change.executeTime(),
                    change.table());
        }

        SinkMessage check(ChangeEvent change, SinkMessage message) {
            return guard.check(change, message, nextId++);
        }
    }

    /** 10 000 bytes per topic ("big-rows": 100 000), counting value and key. */
    private static final class FixedLimits implements MessageLimits {
        @Override
        public long limitOf(String topic) {
            return topic.equals("big-rows") ? 100_000 : LIMIT;
        }

        @Override
        public long sizeOf(byte[] key, byte[] value) {
            return value.length + (key == null ? 0 : key.length) + 1;
        }

        @Override
        public String describe(String topic) {
            return "test limit";
        }

        @Override
        public void close() {}
    }
}
