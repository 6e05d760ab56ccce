package io.sluice.functions.source;

import io.sluice.functions.source.internal.DdlClassifier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Canal's event type and target table for DDL statements (canal-format-notes 4.1). */
class DdlClassifierTest {

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "CREATE TABLE t (id INT) | CREATE | cur | t",
                "create table if not exists `db2`.`t` (id int) | CREATE | db2 | t",
                "CREATE OR REPLACE TEMPORARY TABLE t LIKE u | CREATE | cur | t",
                "/* made by a tool */ CREATE TABLE t (id INT) | CREATE | cur | t",
                "ALTER TABLE t ADD COLUMN c INT | ALTER | cur | t",
                "ALTER TABLE t ENGINE = InnoDB | ALTER | cur | t",
                "ALTER TABLE t COMMENT = 'x' | ALTER | cur | t",
                "ALTER TABLE t | ALTER | cur | t",
                "ALTER TABLE t MODIFY c BIGINT, ADD INDEX i (c) | ALTER | cur | t",
                "ALTER TABLE t ADD INDEX i (c) | CINDEX | cur | t",
                "ALTER TABLE t ADD KEY i (c), ADD COLUMN d INT | CINDEX | cur | t",
                "ALTER TABLE t ADD UNIQUE u (c) | CINDEX | cur | t",
                "ALTER TABLE t ADD CONSTRAINT uq UNIQUE KEY (c) | CINDEX | cur | t",
                "ALTER TABLE t ADD PRIMARY KEY (id) | CINDEX | cur | t",
                "ALTER TABLE t ADD FULLTEXT INDEX f (c) | CINDEX | cur | t",
                "ALTER TABLE t ADD CONSTRAINT fk FOREIGN KEY (c) REFERENCES u (id) | ALTER | cur | t",
                "ALTER TABLE t DROP INDEX i | DINDEX | cur | t",
                "ALTER TABLE t DROP KEY i | DINDEX | cur | t",
                "ALTER TABLE t DROP CONSTRAINT c1 | DINDEX | cur | t",
                "ALTER TABLE t DROP COLUMN c | ALTER | cur | t",
                "ALTER TABLE t DROP PRIMARY KEY | ALTER | cur | t",
                "ALTER TABLE t DROP c | ALTER | cur | t",
                "ALTER TABLE t RENAME TO t2 | RENAME | cur | t2",
                "RENAME TABLE IF EXISTS t TO t2 | RENAME | cur | t2",
                "RENAME TABLE t WAIT 3 TO t2 | RENAME | cur | t2",
                "ALTER TABLE t NOWAIT RENAME TO t2 | RENAME | cur | t2",
                "ALTER TABLE db.t RENAME AS db3.t2 | RENAME | db3 | t2",
                "ALTER TABLE t RENAME COLUMN a TO b | ALTER | cur | t",
                "ALTER TABLE t RENAME INDEX a TO b | ALTER | cur | t",
                "ALTER ONLINE IGNORE TABLE IF EXISTS `we``ird` ADD c INT | ALTER | cur | we`ird",
                "DROP TABLE t | ERASE | cur | t",
                "DROP TABLE IF EXISTS `db2`.t, u | ERASE | db2 | t",
                "DROP TEMPORARY TABLE t | ERASE | cur | t",
                "CREATE INDEX i ON t (c) | CINDEX | cur | t",
                "CREATE UNIQUE INDEX i USING BTREE ON db2.t (c) | CINDEX | db2 | t",
                "DROP INDEX i ON t | DINDEX | cur | t",
                "TRUNCATE TABLE t | TRUNCATE | cur | t",
                "truncate t | TRUNCATE | cur | t",
                "RENAME TABLE a TO b | RENAME | cur | b",
                "RENAME TABLE a TO db2.b, c TO d | RENAME | db2 | b",
                "CREATE DATABASE shop | QUERY | shop | ''",
                "DROP SCHEMA IF EXISTS shop | QUERY | shop | ''",
                "ALTER DATABASE `shop` CHARACTER SET latin1 | QUERY | shop | ''",
                "ALTER SCHEMA DEFAULT COLLATE utf8mb4_bin | QUERY | cur | ''",
                "alter database charset utf8mb4 | QUERY | cur | ''",
                "CREATE PROCEDURE p() BEGIN SELECT 1; END | QUERY | '' | ''",
                "GRANT SELECT ON *.* TO x | QUERY | '' | ''",
                "CREATE INDEX i | QUERY | '' | ''",
                "ALTER | QUERY | '' | ''",
                "'' | QUERY | '' | ''",
            })
    void classifiesLikeCanal(String sql, String type, String database, String table) {
        DdlClassifier.Statement statement = DdlClassifier.classify(sql, "cur");

        assertThat(statement.type().name()).isEqualTo(type);
        assertThat(statement.database()).isEqualTo(database);
        assertThat(statement.table()).isEqualTo(table);
        assertThat(statement.isDatabaseStatement())
                .isEqualTo(sql.toUpperCase().matches("(CREATE|ALTER|DROP) (DATABASE|SCHEMA).*"));
    }

    /** Statements after which the table has the statement's definition, whatever was known. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "CREATE TABLE t (id INT) | true",
                "/* tool */ create table `t` (id INT) | true",
                "CREATE OR REPLACE TABLE t (id INT) | true",
                "create  or\treplace table t LIKE u | true",
                "CREATE TABLE IF NOT EXISTS t (id INT) | false",
                "CREATE OR REPLACE VIEW v AS SELECT 1 | false",
                "ALTER TABLE t ADD c INT | false",
            })
    void createsNewTable(String sql, boolean creates) {
        assertThat(DdlClassifier.createsNewTable(sql)).as(sql).isEqualTo(creates);
    }

    /** Every table a rename moves, in order; nothing for other statements. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "RENAME TABLE a TO b | cur.a -> cur.b",
                "rename tables `db`.`a` to db2.b, c TO d, d TO a | db.a -> db2.b, cur.c -> cur.d,"
                        + " cur.d -> cur.a",
                "RENAME TABLE IF EXISTS a WAIT 3 TO b, c NOWAIT TO d | cur.a -> cur.b, cur.c -> cur.d",
                "ALTER TABLE a RENAME TO b | cur.a -> cur.b",
                "ALTER ONLINE TABLE db.a RENAME AS db2.b | db.a -> db2.b",
                "ALTER TABLE a RENAME b | cur.a -> cur.b",
                "ALTER TABLE a RENAME COLUMN x TO y | ''",
                "ALTER TABLE a RENAME INDEX x TO y | ''",
                "ALTER TABLE a ADD c INT | ''",
                "RENAME TABLE a | ''",
                "CREATE TABLE a (id INT) | ''",
                "RENAME USER x TO y | ''",
            })
    void renames(String sql, String moves) {
        assertThat(DdlClassifier.renames(sql, "cur"))
                .as(sql)
                .extracting(Object::toString)
                .containsExactlyElementsOf(
                        moves.isEmpty() ? List.of() : List.of(moves.split(", ")));
    }
}
