package io.sluice.functions.types;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;

import io.sluice.serializers.event.ChangeEvent;
import io.sluice.serializers.event.ChangeType;
import io.sluice.serializers.event.RowImage;
import io.sluice.serializers.event.TableSchema;

import java.sql.Types;

/** Flink's own serializer contract: round trips, copies, snapshots, duplicates, threads. */
class ChangeEventSerializerTest extends SerializerTestBase<ChangeEvent> {

    static final TableSchema ITEMS =
            TableSchema.builder("shop", "items")
                    .column("id", "bigint(20) unsigned", Types.BIGINT, true)
                    .column("name", "varchar(16)", Types.VARCHAR, false)
                    .column("price", "decimal(10,2)", Types.DECIMAL, false)
                    .build();

    static final TableSchema NO_KEY =
            TableSchema.builder("shop", "log").column("line", "text", Types.CLOB, false).build();

    @Override
    protected TypeSerializer<ChangeEvent> createSerializer() {
        return new ChangeEventSerializer();
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    protected Class<ChangeEvent> getTypeClass() {
        return ChangeEvent.class;
    }

    @Override
    protected ChangeEvent[] getTestData() {
        return testData();
    }

    static ChangeEvent[] testData() {
        RowImage fig = new RowImage.Builder().append(3).append("fig").append("10.00").build();
        RowImage figNull = new RowImage.Builder().append(3).append("fig 😀").appendNull().build();
        ChangeEvent withQuery =
                ChangeEvent.builder(ITEMS, ChangeType.UPDATE)
                        .before(fig)
                        .after(figNull)
                        .query("UPDATE items SET name = 'fig 😀', price = NULL WHERE id = 3")
                        .executeTime(1_700_000_002_000L)
                        .binlog("mysql-bin.000002", 77, 0)
                        .build();
        return new ChangeEvent[] {
            ChangeEvent.builder(ITEMS, ChangeType.INSERT)
                    .after(fig)
                    .executeTime(1_700_000_000_000L)
                    .gtid("0-1-42")
                    .binlog("mysql-bin.000001", 1234, 2)
                    .serverId(1)
                    .transactionId("0-1-42")
                    .build(),
            ChangeEvent.builder(ITEMS, ChangeType.UPDATE).before(fig).after(figNull).build(),
            ChangeEvent.builder(ITEMS, ChangeType.DELETE).before(figNull).build(),
            ChangeEvent.builder(NO_KEY, ChangeType.INSERT)
                    .after(new RowImage.Builder().append("x".repeat(70_000)).build())
                    .build(),
            ChangeEvent.builder(TableSchema.builder("shop", "items").build(), ChangeType.ALTER)
                    .sql("ALTER TABLE items ADD COLUMN note " + "t".repeat(70_000))
                    .build(),
            withQuery,
            ChangeEvent.queryOf(withQuery)
        };
    }
}
