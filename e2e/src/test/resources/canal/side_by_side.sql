-- CanalSideBySideITCase's workload, run after a real Canal server and Sluice both start at the same
-- binlog position, on MariaDB and on MySQL 8.0 (the test adds the last row both wait for). ${db} is
-- the test's database. Canal 1.1.7's decoder fails on MariaDB 11 DDL that names a CHARACTER SET
-- without COLLATE (query status variable 131), so every such DDL has both.

-- As all_types.sql: FLOAT's extremes round outside strict mode's range check.
SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION';

-- Every type of docs/value-rendering.md.
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
    c_latin1 VARCHAR(16) CHARACTER SET latin1 COLLATE latin1_swedish_ci NULL,
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
    PRIMARY KEY (id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_general_ci;

-- Minimums (TIME without the negative values the CDC source cannot decode, value-rendering.md).
INSERT INTO all_types VALUES (1,
    -128, 0, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0, 0,
    -99999999.99, -5, -1234567890123456789012345678.0123456789,
    -3.4028235e38, -1.7976931348623157e308,
    b'0', b'0000000001', b'0',
    1901, '1000-01-01', '00:00:00', '00:00:00.000000',
    '1000-01-01 00:00:00', '1000-01-01 00:00:00.000', '1000-01-01 00:00:00.000000',
    '1970-01-01 00:00:01', '1970-01-01 00:00:01.000',
    '', '', '', '', '', '', '',
    '', '', '', '', '', '',
    'a', '', '[]');

-- Maximums and typical values, 4-byte UTF-8 and latin1 text.
INSERT INTO all_types VALUES (2,
    127, 255, 1, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295,
    9223372036854775807, 18446744073709551615, 42,
    10.00, 9999999999, 1234567890123456789012345678.0123456789,
    0.1, 0.001,
    b'1', b'1010101010', x'FFFFFFFFFFFFFFFF',
    2155, '9999-12-31', '838:59:59', '12:00:00.000001',
    '9999-12-31 23:59:59', '2024-02-29 23:59:59.123', '2024-02-29 23:59:59.123456',
    '2038-01-19 03:14:07', '2024-02-29 23:59:59.120',
    'abc', 'héllo 😀', 'café', 'tiny', 'text ✓', 'medium 𝄞', 'long',
    x'00FF7F80', x'DEADBEEF00', x'01', x'C3A9', x'00', x'FF',
    'b', 'x,z', '{"a": 1, "b": [1, 2]}');

-- NULL everywhere but the key.
INSERT INTO all_types (id) VALUES (3);

-- One statement, three rows.
INSERT INTO all_types (id, c_int, c_varchar, c_decimal) VALUES (10, 1, 'a', 1.50), (11, 2, 'b', 2.00), (12, 3, 'c', 3.25);

-- One statement, two rows, different columns changed in each.
UPDATE all_types SET c_int = c_int + 1, c_varchar = IF(id = 10, 'a2', c_varchar) WHERE id IN (10, 11);

-- NULL to values (bigint unsigned beyond a long, a SET, JSON) and values to NULL.
UPDATE all_types SET c_bigint_u = 18446744073709551615, c_set = 'y', c_json = '{"k": 2}', c_latin1 = 'naïve' WHERE id = 3;
UPDATE all_types SET c_varchar = NULL, c_json = NULL, c_set = NULL WHERE id = 2;

-- A primary-key change.
UPDATE all_types SET id = 20 WHERE id = 12;

DELETE FROM all_types WHERE id IN (10, 11);

-- A latin1 table.
CREATE TABLE legacy (id INT NOT NULL, name VARCHAR(32) NULL, PRIMARY KEY (id)) DEFAULT CHARSET = latin1 COLLATE = latin1_swedish_ci;
INSERT INTO legacy VALUES (1, 'café'), (2, 'Ærø');
UPDATE legacy SET name = 'crème' WHERE id = 1;

-- Table DDL: ALTER, RENAME, TRUNCATE, CREATE, DROP.
ALTER TABLE legacy ADD COLUMN note VARCHAR(16) NULL;
INSERT INTO legacy VALUES (3, 'x', 'n');
RENAME TABLE legacy TO legacy2;
INSERT INTO legacy2 VALUES (4, 'y', NULL);
TRUNCATE TABLE legacy2;
CREATE TABLE scratch (id BIGINT UNSIGNED NOT NULL, v INT NULL, PRIMARY KEY (id));
INSERT INTO scratch VALUES (1, 1), (18446744073709551615, 2);
DROP TABLE scratch;

-- Every spatial type: the column's bytes (the SRID, 4 bytes little-endian, then WKB). No column
-- has an SRID attribute: Canal's DDL parser cannot read one (on MySQL it then stops at the table's
-- rows, on MariaDB it writes the CREATE TABLE as a QUERY of no table); ChangeEventConversionITCase
-- has them.
CREATE TABLE geo (
    id INT NOT NULL,
    g GEOMETRY NULL,
    p POINT NULL,
    l LINESTRING NULL,
    po POLYGON NULL,
    mp MULTIPOINT NULL,
    ml MULTILINESTRING NULL,
    mpo MULTIPOLYGON NULL,
    gc GEOMETRYCOLLECTION NULL,
    PRIMARY KEY (id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_general_ci;
INSERT INTO geo VALUES (1, ST_GeomFromText('POINT(1 2)'), ST_GeomFromText('POINT(-1.5 0)'),
    ST_GeomFromText('LINESTRING(0 0, 1 1, 2 0)'),
    ST_GeomFromText('POLYGON((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 4 2, 4 4, 2 2))'),
    ST_GeomFromText('MULTIPOINT(0 0, 1 1)'),
    ST_GeomFromText('MULTILINESTRING((0 0, 1 1), (2 2, 3 3))'),
    ST_GeomFromText('MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))'),
    ST_GeomFromText('GEOMETRYCOLLECTION(POINT(1 1), LINESTRING(0 0, 1 1))'));
INSERT INTO geo (id, g, gc) VALUES (2, ST_GeomFromText('POINT(1 2)', 4326), ST_GeomFromText('GEOMETRYCOLLECTION EMPTY')), (3, ST_GeomFromText('POLYGON((0 0, 1 0, 1 1, 0 0))', 3857), NULL);
UPDATE geo SET p = ST_GeomFromText('POINT(7 8)'), g = NULL WHERE id = 1;
DELETE FROM geo WHERE id = 3;

-- Database-level DDL.
ALTER DATABASE ${db} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE DATABASE ${db}x CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
DROP DATABASE ${db}x;

