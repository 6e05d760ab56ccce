package io.sluice.functions.source.binlog;

import org.apache.flink.cdc.connectors.mysql.source.offset.BinlogOffset;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlBinlogSplit;
import org.apache.flink.cdc.connectors.mysql.source.split.MySqlSplitSerializer;

import io.debezium.relational.history.TableChanges;
import io.sluice.functions.source.internal.ColumnTypeStyle;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DDL statements applied to the schema model with Debezium's parser, and the columns the decoder
 * then takes (MariaDB's COLUMN_TYPE form). The ITCase {@code TableSchemasITCase} checks the same
 * against a real binlog.
 */
class TableSchemasTest {

    @Test
    void followsColumnChangesRenamesCreatesAndDrops() {
        TableSchemas schemas = empty();
        schemas.applyDdl(
                "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10), e ENUM('a','b,c','it''s'),"
                        + " u INT(10) UNSIGNED ZEROFILL, d DECIMAL(10,2), dt DATETIME(3), b BOOL,"
                        + " j JSON, s CHAR(3) CHARACTER SET latin1, bl BLOB, tx TEXT)",
                "shop",
                "test:1");
        assertThat(describe(schemas, "t"))
                .containsExactly(
                        "id int(11) key",
                        "v varchar(10) utf8mb4",
                        "e enum('a','b,c','it''s') utf8mb4",
                        "u int(10) unsigned zerofill",
                        "d decimal(10,2)",
                        "dt datetime(3)",
                        "b tinyint(1)",
                        "j longtext utf8mb4",
                        "s char(3) latin1",
                        "bl blob",
                        "tx text utf8mb4");

        schemas.applyDdl(
                "ALTER TABLE t ADD COLUMN n BIGINT UNSIGNED AFTER id, DROP COLUMN b,"
                        + " MODIFY v VARCHAR(20) CHARACTER SET latin1,"
                        + " CHANGE COLUMN dt dt2 DATETIME(6)",
                "shop",
                "test:2");
        assertThat(describe(schemas, "t"))
                .startsWith("id int(11) key", "n bigint(20) unsigned", "v varchar(20) latin1")
                .contains("dt2 datetime(6)")
                .noneMatch(column -> column.startsWith("b "));

        schemas.applyDdl("ALTER TABLE t RENAME COLUMN s TO s2", "shop", "test:2a");
        schemas.applyDdl("ALTER TABLE t CONVERT TO CHARACTER SET latin1", "shop", "test:2b");
        assertThat(describe(schemas, "t"))
                .contains("s2 char(3) latin1", "tx text latin1", "v varchar(20) latin1")
                .noneMatch(column -> column.startsWith("s "));

        List<String> before = describe(schemas, "t");
        schemas.applyDdl("TRUNCATE TABLE t", "shop", "test:3");
        schemas.applyDdl("CREATE INDEX iv ON t (v)", "shop", "test:4");
        schemas.applyDdl("BEGIN", "shop", "test:5");
        assertThat(describe(schemas, "t")).isEqualTo(before);

        schemas.applyDdl("RENAME TABLE t TO t2", "shop", "test:6");
        assertThat(schemas.columns("shop", "t")).isNull();
        assertThat(describe(schemas, "t2")).isEqualTo(before);

        schemas.applyDdl("CREATE TABLE t3 LIKE t2", "shop", "test:7");
        assertThat(describe(schemas, "t3")).isEqualTo(before);
        schemas.applyDdl("ALTER TABLE t3 RENAME TO t4", "shop", "test:8");
        assertThat(describe(schemas, "t4")).isEqualTo(before);

        schemas.applyDdl("DROP TABLE t2, t4", "shop", "test:9");
        assertThat(schemas.columns("shop", "t2")).isNull();
        assertThat(schemas.columns("shop", "t4")).isNull();
    }

    @Test
    void aCreateTableOfAKnownTableReplacesItsDefinition() {
        // A replay from before the table was created: the reader knows today's definition.
        TableSchemas schemas = empty();
        schemas.applyDdl("CREATE TABLE t (id INT PRIMARY KEY, c VARCHAR(8))", "shop", "test:1");
        schemas.applyDdl("CREATE TABLE u (id INT PRIMARY KEY, c VARCHAR(8))", "shop", "test:2");

        schemas.applyDdl("CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(8))", "shop", "test:3");
        schemas.applyDdl(
                "CREATE TABLE IF NOT EXISTS u (id INT PRIMARY KEY, a VARCHAR(8))",
                "shop",
                "test:4");

        assertThat(describe(schemas, "t"))
                .containsExactly("id int(11) key", "a varchar(8) utf8mb4");
        assertThat(describe(schemas, "u"))
                .containsExactly("id int(11) key", "c varchar(8) utf8mb4");
    }

    @Test
    void newTablesTakeTheirDatabasesCharset() {
        TableSchemas schemas = empty();
        schemas.applyDdl("CREATE DATABASE legacy CHARACTER SET latin1", "", "test:1");
        schemas.applyDdl("CREATE TABLE legacy.t (v VARCHAR(3))", "shop", "test:2");
        schemas.applyDdl("CREATE TABLE u (v VARCHAR(3)) DEFAULT CHARSET=ucs2", "legacy", "test:3");
        schemas.applyDdl("ALTER DATABASE legacy CHARACTER SET utf8mb4", "", "test:4");
        schemas.applyDdl("CREATE TABLE legacy.w (v VARCHAR(3))", "shop", "test:5");
        assertThat(schemas.columns("legacy", "w").get(0).mysqlCharset()).isEqualTo("utf8mb4");
        assertThat(schemas.columns("legacy", "t").get(0).mysqlCharset()).isEqualTo("latin1");
        assertThat(schemas.columns("legacy", "u").get(0).mysqlCharset()).isEqualTo("ucs2");
    }

    @Test
    void unreadableDdlOfACapturedTableFails() {
        TableSchemas schemas = empty();
        assertThatThrownBy(() -> schemas.applyDdl("ALTER TABLE t ADD (", "shop", "bin.000001:42"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("bin.000001:42")
                .hasMessageContaining("shop.t")
                .hasMessageContaining("ALTER TABLE t ADD (");
    }

    /**
     * The schemas as a checkpoint stores them: in Flink CDC's binlog split, serialized by its split
     * serializer, and put over the schemas a restore reads.
     */
    @Test
    void schemasGoThroughFlinkCdcsBinlogSplit() throws Exception {
        TableSchemas schemas = empty();
        schemas.applyDdl(
                "CREATE TABLE t (id BIGINT UNSIGNED PRIMARY KEY, v VARCHAR(10) CHARACTER SET"
                        + " latin1, e ENUM('a','it''s'), d DECIMAL(10,2), dt DATETIME(3), j JSON,"
                        + " b BLOB)",
                "shop",
                "test:1");
        schemas.applyDdl("ALTER TABLE t ADD COLUMN n INT AFTER id", "shop", "test:2");
        schemas.applyDdl("CREATE TABLE u (k CHAR(2) PRIMARY KEY)", "shop", "test:3");
        MySqlBinlogSplit split =
                new MySqlBinlogSplit(
                        "binlog-split",
                        BinlogOffset.ofBinlogFilePosition("mysql-bin.000001", 4),
                        BinlogOffset.ofNonStopping(),
                        List.of(),
                        schemas.snapshot().asTableChanges(),
                        0,
                        false);
        MySqlSplitSerializer serializer = MySqlSplitSerializer.INSTANCE;
        MySqlBinlogSplit read =
                serializer
                        .deserialize(serializer.getVersion(), serializer.serialize(split))
                        .asBinlogSplit();

        TableSchemas restored = empty();
        restored.applyDdl("CREATE TABLE t (id INT PRIMARY KEY)", "shop", "test:0");
        restored.overwrite(
                read.getTableSchemas().values().stream()
                        .map(TableChanges.TableChange::getTable)
                        .collect(Collectors.toList()));
        assertThat(describe(restored, "t")).isEqualTo(describe(schemas, "t"));
        assertThat(describe(restored, "u")).isEqualTo(describe(schemas, "u"));
        assertThat(describe(restored, "t"))
                .startsWith("id bigint(20) unsigned key", "n int(11)", "v varchar(10) latin1")
                .contains("e enum('a','it''s') utf8mb4");
    }

    /** A model that knows no table yet, with utf8mb4 as the server's and shop's charset. */
    private static TableSchemas empty() {
        return TableSchemas.restore(
                new TableSchemas.State("utf8mb4", Map.of("shop", "utf8mb4"), List.of()),
                (database, table) -> true,
                ColumnTypeStyle.MARIADB,
                ZoneOffset.UTC);
    }

    private static List<String> describe(TableSchemas schemas, String table) {
        return schemas.columns("shop", table).stream()
                .map(
                        column ->
                                column.name()
                                        + " "
                                        + column.type().mysqlType()
                                        + (column.mysqlCharset() == null
                                                ? ""
                                                : " " + column.mysqlCharset())
                                        + (column.isKey() ? " key" : ""))
                .collect(Collectors.toList());
    }
}
