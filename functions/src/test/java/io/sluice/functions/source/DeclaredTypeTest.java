package io.sluice.functions.source;

import io.sluice.functions.source.internal.ColumnTypeStyle;
import io.sluice.functions.source.internal.DeclaredType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Canal's mysqlType and sqlType from the parameters Debezium attaches to each field. */
class DeclaredTypeTest {

    @ParameterizedTest(name = "{0}({1},{2}) -> {4}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                // type param | length | scale | allowed | mysqlType | sqlType
                // What MariaDB 11.4 + Debezium 1.9 deliver (checked against COLUMN_TYPE).
                "INT | 11 | - | - | int(11) | " + Types.INTEGER,
                "TINYINT | 4 | - | - | tinyint(4) | " + Types.TINYINT,
                "TINYINT UNSIGNED | 3 | - | - | tinyint(3) unsigned | " + Types.TINYINT,
                "TINYINT | 1 | - | - | tinyint(1) | " + Types.TINYINT,
                "SMALLINT UNSIGNED | 5 | - | - | smallint(5) unsigned | " + Types.SMALLINT,
                "MEDIUMINT | 9 | - | - | mediumint(9) | " + Types.INTEGER,
                "INT UNSIGNED | 10 | - | - | int(10) unsigned | " + Types.INTEGER,
                "BIGINT | 20 | - | - | bigint(20) | " + Types.BIGINT,
                "BIGINT UNSIGNED | 20 | - | - | bigint(20) unsigned | " + Types.BIGINT,
                "INT UNSIGNED ZEROFILL | 5 | - | - | int(5) unsigned zerofill | " + Types.INTEGER,
                "DECIMAL | 10 | 2 | - | decimal(10,2) | " + Types.DECIMAL,
                "DECIMAL | 10 | 0 | - | decimal(10,0) | " + Types.DECIMAL,
                "FLOAT | - | - | - | float | " + Types.REAL,
                "DOUBLE | - | - | - | double | " + Types.DOUBLE,
                "BIT | 1 | - | - | bit(1) | " + Types.BIT,
                "BIT | 10 | - | - | bit(10) | " + Types.BIT,
                "YEAR | 4 | - | - | year(4) | " + Types.VARCHAR,
                "DATE | - | - | - | date | " + Types.DATE,
                "TIME | - | - | - | time | " + Types.TIME,
                "TIME | 6 | - | - | time(6) | " + Types.TIME,
                "DATETIME | - | - | - | datetime | " + Types.TIMESTAMP,
                "DATETIME | 3 | - | - | datetime(3) | " + Types.TIMESTAMP,
                "TIMESTAMP | - | - | - | timestamp | " + Types.TIMESTAMP,
                "TIMESTAMP | 3 | - | - | timestamp(3) | " + Types.TIMESTAMP,
                "CHAR | 8 | - | - | char(8) | " + Types.CHAR,
                "VARCHAR | 16 | - | - | varchar(16) | " + Types.VARCHAR,
                "TINYTEXT | - | - | - | tinytext | " + Types.CLOB,
                "TEXT | - | - | - | text | " + Types.CLOB,
                "MEDIUMTEXT | - | - | - | mediumtext | " + Types.CLOB,
                "LONGTEXT | - | - | - | longtext | " + Types.CLOB,
                "BINARY | 4 | - | - | binary(4) | " + Types.BLOB,
                "VARBINARY | 16 | - | - | varbinary(16) | " + Types.BLOB,
                "TINYBLOB | - | - | - | tinyblob | " + Types.BLOB,
                "BLOB | - | - | - | blob | " + Types.BLOB,
                "LONGBLOB | - | - | - | longblob | " + Types.BLOB,
                "ENUM | 1 | - | a,b,c | enum('a','b','c') | " + Types.INTEGER,
                "SET | 5 | - | x,y,z | set('x','y','z') | " + Types.BIT,
                // MySQL-only and DDL-only spellings.
                "JSON | - | - | - | json | " + Types.VARCHAR,
                "BIGINT UNSIGNED | - | - | - | bigint unsigned | " + Types.BIGINT,
                "INTEGER | - | - | - | int | " + Types.INTEGER,
                "INT SIGNED | 11 | - | - | int(11) | " + Types.INTEGER,
                "BOOLEAN | - | - | - | tinyint(1) | " + Types.TINYINT,
                "NUMERIC | 8 | 3 | - | decimal(8,3) | " + Types.DECIMAL,
                "DEC | - | - | - | decimal(10,0) | " + Types.DECIMAL,
                "DECIMAL UNSIGNED | 10 | 2 | - | decimal(10,2) unsigned | " + Types.DECIMAL,
                "FLOAT | 7 | 3 | - | float(7,3) | " + Types.REAL,
                "FLOAT | 30 | - | - | double | " + Types.DOUBLE,
                "NVARCHAR | 10 | - | - | varchar(10) | " + Types.VARCHAR,
                "CHAR | - | - | - | char(1) | " + Types.CHAR,
                "ENUM | 1 | - | it's,b | enum('it''s','b') | " + Types.INTEGER,
            })
    void buildsCanalMysqlTypeAndSqlType(
            String type,
            String length,
            String scale,
            String allowed,
            String mysqlType,
            int sqlType) {
        DeclaredType declared = DeclaredType.of(type, length, scale, allowed);

        assertThat(declared.mysqlType()).isEqualTo(mysqlType);
        assertThat(declared.sqlType()).isEqualTo(sqlType);
    }

    /**
     * A type as a DDL's text states it (Debezium's parser) or as {@code SHOW CREATE TABLE} shows it
     * both come out in the server's COLUMN_TYPE form. MariaDB's column is
     * ColumnTypeFidelityITCase's.
     */
    @ParameterizedTest(name = "{0} {1}({2}) -> {3}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                // style | type param | length | mysqlType | sqlType
                "MARIADB | TINYINT | - | tinyint(4) | " + Types.TINYINT,
                "MARIADB | TINYINT UNSIGNED | - | tinyint(3) unsigned | " + Types.TINYINT,
                "MARIADB | BOOLEAN | - | tinyint(1) | " + Types.TINYINT,
                "MARIADB | SMALLINT | - | smallint(6) | " + Types.SMALLINT,
                "MARIADB | SMALLINT UNSIGNED | - | smallint(5) unsigned | " + Types.SMALLINT,
                "MARIADB | MEDIUMINT | - | mediumint(9) | " + Types.INTEGER,
                "MARIADB | MEDIUMINT UNSIGNED | - | mediumint(8) unsigned | " + Types.INTEGER,
                "MARIADB | INT | - | int(11) | " + Types.INTEGER,
                "MARIADB | INTEGER UNSIGNED | - | int(10) unsigned | " + Types.INTEGER,
                "MARIADB | INT | 5 | int(5) | " + Types.INTEGER,
                "MARIADB | INT | 11 | int(11) | " + Types.INTEGER,
                "MARIADB | BIGINT | - | bigint(20) | " + Types.BIGINT,
                "MARIADB | BIGINT UNSIGNED | - | bigint(20) unsigned | " + Types.BIGINT,
                "MARIADB | INT ZEROFILL | - | int(10) unsigned zerofill | " + Types.INTEGER,
                "MARIADB | YEAR | - | year(4) | " + Types.VARCHAR,
                "MARIADB | BIT | - | bit(1) | " + Types.BIT,
                "MARIADB | JSON | - | longtext | " + Types.CLOB,
                "MARIADB | LONGTEXT | - | longtext | " + Types.CLOB,
                "MARIADB | VARCHAR | 8 | varchar(8) | " + Types.VARCHAR,
                "MYSQL_DISPLAY_WIDTHS | INT | - | int(11) | " + Types.INTEGER,
                "MYSQL_DISPLAY_WIDTHS | YEAR | - | year(4) | " + Types.VARCHAR,
                "MYSQL_DISPLAY_WIDTHS | JSON | - | json | " + Types.VARCHAR,
                "MYSQL | INT | 11 | int | " + Types.INTEGER,
                "MYSQL | INT | - | int | " + Types.INTEGER,
                "MYSQL | BIGINT UNSIGNED | 20 | bigint unsigned | " + Types.BIGINT,
                "MYSQL | TINYINT | 4 | tinyint | " + Types.TINYINT,
                "MYSQL | TINYINT | 1 | tinyint(1) | " + Types.TINYINT,
                "MYSQL | BOOLEAN | - | tinyint(1) | " + Types.TINYINT,
                "MYSQL | INT ZEROFILL | 5 | int(5) unsigned zerofill | " + Types.INTEGER,
                "MYSQL | INT UNSIGNED ZEROFILL | - | int(10) unsigned zerofill | " + Types.INTEGER,
                "MYSQL | YEAR | 4 | year | " + Types.VARCHAR,
                "MYSQL | BIT | - | bit(1) | " + Types.BIT,
                "MYSQL | JSON | - | json | " + Types.VARCHAR,
                "MYSQL | DECIMAL | 10 | decimal(10,0) | " + Types.DECIMAL,
            })
    void takesTheServersColumnTypeForm(
            ColumnTypeStyle style, String type, String length, String mysqlType, int sqlType) {
        DeclaredType declared = DeclaredType.of(type, length, null, null, style);

        assertThat(declared.mysqlType()).isEqualTo(mysqlType);
        assertThat(declared.sqlType()).isEqualTo(sqlType);
    }

    @Test
    void tellsTheStyleByTheServersVersion() {
        assertThat(ColumnTypeStyle.ofVersion("11.4.5-MariaDB-log"))
                .isEqualTo(ColumnTypeStyle.MARIADB);
        assertThat(ColumnTypeStyle.ofVersion("10.6.16-MariaDB-0ubuntu0.22.04.1"))
                .isEqualTo(ColumnTypeStyle.MARIADB);
        assertThat(ColumnTypeStyle.ofVersion("5.7.44-log"))
                .isEqualTo(ColumnTypeStyle.MYSQL_DISPLAY_WIDTHS);
        assertThat(ColumnTypeStyle.ofVersion("8.0.18"))
                .isEqualTo(ColumnTypeStyle.MYSQL_DISPLAY_WIDTHS);
        assertThat(ColumnTypeStyle.ofVersion("8.0.19")).isEqualTo(ColumnTypeStyle.MYSQL);
        assertThat(ColumnTypeStyle.ofVersion("8.0.36-0ubuntu0.22.04.1"))
                .isEqualTo(ColumnTypeStyle.MYSQL);
        assertThat(ColumnTypeStyle.ofVersion("8.4.0")).isEqualTo(ColumnTypeStyle.MYSQL);
        assertThatThrownBy(() -> ColumnTypeStyle.ofVersion("unknown"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'unknown'");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // COLUMN_TYPE | base | unsigned | length | scale | sqlType
                "int(11) | int | false | 11 | -1 | " + Types.INTEGER,
                "int(5) unsigned zerofill | int | true | 5 | -1 | " + Types.INTEGER,
                "bigint(20) unsigned | bigint | true | 20 | -1 | " + Types.BIGINT,
                "decimal(38,10) | decimal | false | 38 | 10 | " + Types.DECIMAL,
                "double(10,2) unsigned | double | true | 10 | 2 | " + Types.DOUBLE,
                "float | float | false | -1 | -1 | " + Types.REAL,
                "time(6) | time | false | 6 | -1 | " + Types.TIME,
                "binary(4) | binary | false | 4 | -1 | " + Types.BLOB,
                "longtext | longtext | false | -1 | -1 | " + Types.CLOB,
                "set('x','y','z') | set | false | -1 | -1 | " + Types.BIT,
            })
    void readsColumnTypeAndGivesItBack(
            String columnType, String base, boolean unsigned, int length, int scale, int sqlType) {
        DeclaredType declared = DeclaredType.ofColumnType(columnType);

        assertThat(declared.base()).isEqualTo(base);
        assertThat(declared.isUnsigned()).isEqualTo(unsigned);
        assertThat(declared.length()).isEqualTo(length);
        assertThat(declared.scale()).isEqualTo(scale);
        assertThat(declared.sqlType()).isEqualTo(sqlType);
        assertThat(declared.mysqlType()).isEqualTo(columnType);
    }

    @Test
    void readsQuotedLabelsOfColumnType() {
        DeclaredType declared = DeclaredType.ofColumnType("enum('a','It''s',',','')");

        assertThat(declared.labels()).containsExactly("a", "It's", ",", "");
        assertThat(declared.mysqlType()).isEqualTo("enum('a','It''s',',','')");
        assertThatThrownBy(() -> DeclaredType.ofColumnType("enum('a','b'"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("enum('a','b'");
    }

    /** A default display width is left to the parser, which then gives it back as MariaDB does. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "int(11)|int",
                "int(10) unsigned|int unsigned",
                "bigint(20) unsigned|bigint unsigned",
                "tinyint(4)|tinyint",
                "int(5)|int(5)",
                "tinyint(1)|tinyint(1)",
                "int(10) unsigned zerofill|int(10) unsigned zerofill",
                "varchar(10)|varchar(10)",
                "year(4)|year(4)"
            })
    void ddlTypeLeavesOutADefaultDisplayWidth(String columnType, String ddlType) {
        assertThat(DeclaredType.ofColumnType(columnType).ddlType()).isEqualTo(ddlType);
        if (!ddlType.contains("(")) {
            assertThat(DeclaredType.of(ddlType, null, null, null, ColumnTypeStyle.MARIADB))
                    .as("the parser's type, without a width, in MariaDB's form")
                    .extracting(DeclaredType::mysqlType)
                    .isEqualTo(columnType);
        }
    }

    @Test
    void spatialTypesAreBlobsInTheServersNames() {
        assertThat(DeclaredType.of("POINT", null, null, null).sqlType()).isEqualTo(Types.BLOB);
        assertThat(DeclaredType.of("POINT", null, null, null).isSpatial()).isTrue();
        assertThat(DeclaredType.of("GEOMETRY", null, null, null).mysqlType()).isEqualTo("geometry");
        // MySQL 8 names GEOMETRYCOLLECTION geomcollection; MariaDB knows only the long name.
        assertThat(
                        DeclaredType.of(
                                        "GEOMETRYCOLLECTION",
                                        null,
                                        null,
                                        null,
                                        ColumnTypeStyle.MYSQL)
                                .mysqlType())
                .isEqualTo("geomcollection");
        assertThat(
                        DeclaredType.of("GEOMCOLLECTION", null, null, null, ColumnTypeStyle.MARIADB)
                                .mysqlType())
                .isEqualTo("geometrycollection");
        assertThat(DeclaredType.ofColumnType("geomcollection").isSpatial()).isTrue();
        assertThat(DeclaredType.of("UUID", null, null, null).isSpatial()).isFalse();
    }
}
