package io.sluice.functions.source;

import io.sluice.functions.source.internal.DmlTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The tables a DML statement logged as text writes; the rest are not DML. */
class DmlTablesTest {

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "INSERT INTO t VALUES (1) | cur.t",
                "insert low_priority ignore into `db2`.`t` (a, b) values (1, 2) | db2.t",
                "INSERT t SET a = 1 | cur.t",
                "INSERT INTO t PARTITION (p0) SELECT * FROM u JOIN v | cur.t",
                "INSERT INTO t VALUES (1) ON DUPLICATE KEY UPDATE a = VALUES(a) | cur.t",
                "INSERT DELAYED INTO t VALUES (1) RETURNING id | cur.t",
                "REPLACE INTO db.t VALUES (1) | db.t",
                "/* app */ INSERT /*! IGNORE */ INTO t VALUES (1) | cur.t",
                "UPDATE t SET a = 1 WHERE id = 2 | cur.t",
                "UPDATE LOW_PRIORITY IGNORE db.t AS x SET x.a = 1 | db.t",
                "UPDATE t1, t2 SET t1.a = t2.a WHERE t1.id = t2.id | cur.t1",
                "UPDATE t1 a JOIN db.t2 b ON a.id = b.id SET b.x = a.x, b.y = 'SET' | db.t2",
                "UPDATE t1 a LEFT OUTER JOIN t2 b USING (id) SET a.x = (SELECT 1 FROM t3), b.y = 2 | cur.t1,cur.t2",
                "UPDATE t1 JOIN t2 ON t1.id = t2.id SET x = 1 | cur.t1,cur.t2",
                "UPDATE t1 JOIN (SELECT id FROM t3) d ON t1.id = d.id SET t1.x = 1 | cur.t1",
                "UPDATE t1 FORCE INDEX (k), db.t2 SET db.t2.x = 1 | db.t2",
                "UPDATE (t1 JOIN t2 ON t1.id = t2.id) SET t2.x = 1 | cur.t2",
                "DELETE FROM t WHERE id = 1 | cur.t",
                "DELETE LOW_PRIORITY QUICK IGNORE FROM db.t PARTITION (p1) ORDER BY id LIMIT 3 | db.t",
                "DELETE FROM t AS x WHERE x.id = 1 | cur.t",
                "DELETE a, b FROM t1 a JOIN db.t2 b ON a.id = b.id WHERE a.x = 1 | cur.t1,db.t2",
                "DELETE t1.* FROM t1, t2 WHERE t1.id = t2.id | cur.t1",
                "DELETE FROM t1, t2 USING t1 INNER JOIN t2 INNER JOIN t3 WHERE t1.id = t3.id | cur.t1,cur.t2",
                "DELETE HISTORY FROM t BEFORE SYSTEM_TIME '2024-01-01' | cur.t",
                "LOAD DATA LOCAL INFILE '/tmp/x.csv' REPLACE INTO TABLE db.t FIELDS TERMINATED BY ',' | db.t",
                "LOAD XML INFILE 'x.xml' INTO TABLE t ROWS IDENTIFIED BY '<row>' | cur.t",
                "WITH c AS (SELECT 1 AS id) UPDATE t JOIN c ON t.id = c.id SET t.x = 1 | cur.t",
                "WITH RECURSIVE c (n) AS (SELECT 1 UNION SELECT n + 1 FROM c WHERE n < 3) DELETE FROM t WHERE id IN (SELECT n FROM c) | cur.t",
            })
    void namesTheTablesWritten(String sql, String tables) {
        assertThat(names(DmlTables.written(sql, "cur"))).as(sql).isEqualTo(tables);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(
            strings = {
                "BEGIN",
                "COMMIT",
                "SELECT * FROM t",
                "CREATE TABLE t (id INT)",
                "ALTER TABLE t ADD COLUMN c INT",
                "TRUNCATE TABLE t",
                "DROP TABLE t",
                "SAVEPOINT s",
                "WITH c AS (SELECT 1) SELECT * FROM c",
                "WITH c AS (UPDATE t SET x = 1) SELECT 1",
                "# Dummy event replacing event type 160",
                "LOAD INDEX INTO CACHE t",
                "",
            })
    void isNullForOtherStatements(String sql) {
        assertThat(DmlTables.written(sql, "cur")).as(sql).isNull();
    }

    @Test
    void isEmptyForADmlStatementWhoseTablesCannotBeRead() {
        assertThat(DmlTables.written("INSERT INTO", "cur")).isEmpty();
        assertThat(DmlTables.written("UPDATE t", "cur")).isEmpty();
        assertThat(DmlTables.written("DELETE FROM ('x')", "cur")).isEmpty();
    }

    @Test
    void aStatementOfMillionsOfTokensIsReadByItsHead() {
        StringBuilder sql = new StringBuilder("INSERT INTO big VALUES (0)");
        for (int i = 1; i < 200_000; i++) {
            sql.append(", (").append(i).append(')');
        }
        assertThat(names(DmlTables.written(sql.toString(), "cur"))).isEqualTo("cur.big");

        // A SET clause cut off: every table of the statement.
        StringBuilder update = new StringBuilder("UPDATE t1, t2 SET t1.a = 1");
        for (int i = 0; i < 20_000; i++) {
            update.append(" + 1");
        }
        update.append(", t2.b = 2");
        assertThat(names(DmlTables.written(update.toString(), "cur"))).isEqualTo("cur.t1,cur.t2");
    }

    @Test
    void noCurrentDatabaseIsEmpty() {
        assertThat(names(DmlTables.written("DELETE FROM t", null))).isEqualTo(".t");
    }

    private static String names(List<DmlTables.Name> tables) {
        return tables == null
                ? "null"
                : tables.stream().map(DmlTables.Name::toString).collect(Collectors.joining(","));
    }
}
