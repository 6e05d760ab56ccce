-- Fixture for DebeziumJsonJudgeITCase: the tables both Debezium and Sluice capture. Rows come
-- later, from debezium_judge_dml.sql, once both read the binlog.

CREATE TABLE items (
    id INT NOT NULL,
    name VARCHAR(32) NULL,
    qty INT NULL,
    PRIMARY KEY (id)
) DEFAULT CHARSET = utf8mb4;

CREATE TABLE pairs (
    a INT NOT NULL,
    b VARCHAR(8) NOT NULL,
    v BIGINT NULL,
    PRIMARY KEY (a, b)
) DEFAULT CHARSET = utf8mb4;

CREATE TABLE nokey (
    n INT NULL,
    v VARCHAR(8) NULL
) DEFAULT CHARSET = utf8mb4;

CREATE TABLE fence (
    id INT NOT NULL,
    PRIMARY KEY (id)
);

CREATE TABLE all_types (
    id INT NOT NULL,
    c_tinyint TINYINT NULL,
    c_tinyint_u TINYINT UNSIGNED NULL,
    c_bool BOOLEAN NULL,
    c_smallint SMALLINT NULL,
    c_smallint_u SMALLINT UNSIGNED NULL,
    c_mediumint MEDIUMINT NULL,
    c_mediumint_u MEDIUMINT UNSIGNED NULL,
    c_int INT NULL,
    c_int_u INT UNSIGNED NULL,
    c_bigint BIGINT NULL,
    c_bigint_u BIGINT UNSIGNED NULL,
    c_int_zf INT(5) UNSIGNED ZEROFILL NULL,
    c_decimal DECIMAL(10, 2) NULL,
    c_decimal0 DECIMAL(10, 0) NULL,
    c_decimal_big DECIMAL(38, 10) NULL,
    c_float FLOAT NULL,
    c_double DOUBLE NULL,
    c_bit1 BIT(1) NULL,
    c_bit10 BIT(10) NULL,
    c_bit64 BIT(64) NULL,
    c_year YEAR NULL,
    c_date DATE NULL,
    c_time TIME NULL,
    c_time6 TIME(6) NULL,
    c_datetime DATETIME NULL,
    c_datetime3 DATETIME(3) NULL,
    c_datetime6 DATETIME(6) NULL,
    c_timestamp TIMESTAMP NULL DEFAULT NULL,
    c_timestamp3 TIMESTAMP(3) NULL DEFAULT NULL,
    c_char CHAR(8) NULL,
    c_varchar VARCHAR(16) NULL,
    c_latin1 VARCHAR(16) CHARACTER SET latin1 NULL,
    c_tinytext TINYTEXT NULL,
    c_text TEXT NULL,
    c_mediumtext MEDIUMTEXT NULL,
    c_longtext LONGTEXT NULL,
    c_binary BINARY(4) NULL,
    c_varbinary VARBINARY(16) NULL,
    c_tinyblob TINYBLOB NULL,
    c_blob BLOB NULL,
    c_mediumblob MEDIUMBLOB NULL,
    c_longblob LONGBLOB NULL,
    c_enum ENUM('a', 'b', 'c') NULL,
    c_set SET('x', 'y', 'z') NULL,
    c_json JSON NULL,
    c_default VARCHAR(8) NULL DEFAULT 'dflt',
    PRIMARY KEY (id)
) DEFAULT CHARSET = utf8mb4;

