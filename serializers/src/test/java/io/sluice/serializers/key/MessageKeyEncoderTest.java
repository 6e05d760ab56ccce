package io.sluice.serializers.key;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Types;

import static org.assertj.core.api.Assertions.assertThat;

class MessageKeyEncoderTest {

    private final MessageKeyEncoder keys = new MessageKeyEncoder();

    @Test
    void compositeKeyInKeyOrderWithEscaping() {
        TableSchema schema =
                TableSchema.builder("shop", "lines")
                        .column("order_id", "bigint(20)", Types.BIGINT, true)
                        .column("note", "text", Types.CLOB, false)
                        .column("sku", "varchar(16)", Types.VARCHAR, true)
                        .build();
        RowImage row = new RowImage.Builder().append(7).append("x").append("a\"b😀").build();

        byte[] key = keys.keyOf(ChangeEvent.builder(schema, ChangeType.INSERT).after(row).build());

        assertThat(new String(key, StandardCharsets.UTF_8))
                .isEqualTo("[\"shop\",\"lines\",\"7\",\"a\\\"b😀\"]");
    }

    @Test
    void deleteUsesTheBeforeImageAndNoKeyMeansNull() {
        TableSchema keyed =
                TableSchema.builder("db", "t").column("id", "int(11)", Types.INTEGER, true).build();
        TableSchema unkeyed =
                TableSchema.builder("db", "log").column("l", "text", Types.CLOB, false).build();
        RowImage one = new RowImage.Builder().append(1).build();

        ChangeEvent delete = ChangeEvent.builder(keyed, ChangeType.DELETE).before(one).build();
        assertThat(new String(keys.keyOf(delete), StandardCharsets.UTF_8))
                .isEqualTo("[\"db\",\"t\",\"1\"]");
        assertThat(keys.keyOf(ChangeEvent.builder(unkeyed, ChangeType.INSERT).after(one).build()))
                .isNull();
    }
}
