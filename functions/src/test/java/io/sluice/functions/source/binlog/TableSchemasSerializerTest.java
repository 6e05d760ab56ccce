package io.sluice.functions.source.binlog;

import io.sluice.functions.source.internal.ColumnTypeStyle;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The checkpoint form of the schema model: a round trip, and a stored version 1 still read. */
class TableSchemasSerializerTest {

    /** {@link #state()} as version 1 wrote it; never regenerate it, add a version instead. */
    private static final String STORED_V1 =
            "AAAAB3V0ZjhtYjQAAAACAAAABmxlZ2FjeQAAAAZsYXRpbjEAAAAEc2hvcAAAAAd1dGY4bWI0AAAAAgAA"
                    + "AAZsZWdhY3kAAAAFbm90ZXMAAAAGbGF0aW4xAAAAAAAAAAIAAAAEYm9keQAAAAEAAAAEVEVYVAAAAARU"
                    + "RVhUAAAADP///////////////wAAAAZsYXRpbjEJ/////wAAAAD/////AAAAA3JhdwAAAAIAAAAJVkFS"
                    + "QklOQVJZAAAACVZBUkJJTkFSWf////3/////AAAACP//////////Cf////8AAAAA/////wAAAARzaG9w"
                    + "AAAABm9yZGVycwAAAAd1dGY4bWI0AAAAAgAAAAJpZAAAAARjb2RlAAAABgAAAAJpZAAAAAEAAAAPQklH"
                    + "SU5UIFVOU0lHTkVEAAAAD0JJR0lOVCBVTlNJR05FRP////v/////////////////////Bv////8AAAAA"
                    + "/////wAAAARjb2RlAAAAAgAAAARDSEFSAAAABENIQVIAAAAB/////wAAAAT/////AAAABmxhdGluMQgA"
                    + "AAABeAAAAAD/////AAAABXN0YXRlAAAAAwAAAARFTlVNAAAABEVOVU0AAAAB/////wAAAAH/////AAAA"
                    + "B3V0ZjhtYjQJAAAAA25ldwAAAAIAAAAFJ25ldycAAAAHJ2l0JydzJ/////8AAAAGYW1vdW50AAAABAAA"
                    + "AAdERUNJTUFMAAAAB0RFQ0lNQUwAAAAD/////wAAAAwAAAAD/////wn/////AAAAAP////8AAAACYXQA"
                    + "AAAFAAAACERBVEVUSU1FAAAACERBVEVUSU1FAAAAXf////8AAAAG//////////8J/////wAAAAD/////"
                    + "AAAABXRvdGFsAAAABgAAAANJTlQAAAADSU5UAAAABP////////////////////8J/////wAAAAD/////";

    @Test
    void roundTrips() throws Exception {
        TableSchemas.State state = state();
        byte[] bytes = TableSchemasSerializer.INSTANCE.serialize(state);
        TableSchemas.State read = TableSchemasSerializer.INSTANCE.deserialize(1, bytes);
        assertThat(read).isEqualTo(state);
    }

    @Test
    void readsTheStoredVersion1() throws Exception {
        byte[] stored = Base64.getDecoder().decode(STORED_V1);
        TableSchemas.State read = TableSchemasSerializer.INSTANCE.deserialize(1, stored);
        assertThat(read).isEqualTo(state());
        assertThat(TableSchemasSerializer.INSTANCE.serialize(read))
                .as("version 1 written as it was stored")
                .isEqualTo(stored);
        TableSchemas schemas =
                TableSchemas.restore(
                        read, (database, table) -> true, ColumnTypeStyle.MARIADB, ZoneOffset.UTC);
        assertThat(schemas.columns("shop", "orders"))
                .extracting(column -> column.name() + " " + column.type().mysqlType())
                .containsExactly(
                        "id bigint(20) unsigned",
                        "code char(4)",
                        "state enum('new','it''s')",
                        "amount decimal(12,3)",
                        "at datetime(6)",
                        "total int(11)");
        assertThat(schemas.columns("legacy", "notes"))
                .extracting(BinlogColumn::mysqlCharset)
                .containsExactly("latin1", null);
    }

    @Test
    void refusesAnUnknownVersion() {
        assertThatThrownBy(() -> TableSchemasSerializer.INSTANCE.deserialize(2, new byte[0]))
                .hasMessageContaining("state version 2")
                .hasMessageContaining("reads version 1");
    }

    /** Two tables after DDL: every kind of column attribute the model keeps. */
    private static TableSchemas.State state() {
        TableSchemas schemas =
                TableSchemas.restore(
                        new TableSchemas.State(
                                "utf8mb4",
                                Map.of("shop", "utf8mb4", "legacy", "latin1"),
                                List.of()),
                        (database, table) -> true,
                        ColumnTypeStyle.MARIADB,
                        ZoneOffset.UTC);
        schemas.applyDdl(
                "CREATE TABLE orders (id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,"
                        + " code CHAR(4) CHARACTER SET latin1 NOT NULL DEFAULT 'x' COMMENT 'c',"
                        + " state ENUM('new','it''s') DEFAULT 'new', amount DECIMAL(12,3),"
                        + " at DATETIME(6), total INT AS (id * 2) VIRTUAL,"
                        + " PRIMARY KEY (id, code))",
                "shop",
                "test:1");
        schemas.applyDdl("CREATE TABLE legacy.notes (body TEXT, raw VARBINARY(8))", "", "test:2");
        return schemas.snapshot();
    }
}
