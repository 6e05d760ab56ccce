-- Fixture for ChangeEventConversionITCase: one column per MySQL/MariaDB type Sluice renders.
-- Non-strict, zero dates allowed: the last rows store values strict mode would refuse.
SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION';

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

-- 1: minimums and negatives.
INSERT INTO all_types VALUES (1,
    -128, 0, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0, 0,
    -99999999.99, -5, -1234567890123456789012345678.0123456789,
    -3.4028235e38, -1.7976931348623157e308,
    b'0', b'0000000001', b'0',
    1901, '1000-01-01', '-838:59:59', '-838:59:59.000000',
    '1000-01-01 00:00:00', '1000-01-01 00:00:00.000', '1000-01-01 00:00:00.000000',
    '1970-01-01 00:00:01', '1970-01-01 00:00:01.000',
    '', '', '', '', '', '', '',
    '', '', '', '', '', '',
    'a', '', '[]', 'x');

-- 2: maximums and typical values.
INSERT INTO all_types VALUES (2,
    127, 255, 1, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295,
    9223372036854775807, 18446744073709551615, 42,
    10.00, 9999999999, 1234567890123456789012345678.0123456789,
    0.1, 0.001,
    b'1', b'1010101010', x'FFFFFFFFFFFFFFFF',
    2155, '9999-12-31', '838:59:59', '12:00:00.000001',
    '9999-12-31 23:59:59', '2024-02-29 23:59:59.123', '2024-02-29 23:59:59.123456',
    '2038-01-19 03:14:07', '2024-02-29 23:59:59.120',
    'abc', 'héllo 😀', 'café', 'tiny', 'text ✓', 'medium', 'long',
    x'00FF7F80', x'DEADBEEF00', x'01', x'C3A9', x'00', x'FF',
    'b', 'x,z', '{"a": 1, "b": [1, 2]}', 'dflt');

-- 3: NULL everywhere but the key.
INSERT INTO all_types (id, c_default) VALUES (3, NULL);

-- 4: zero dates, YEAR 0, the invalid ENUM value and the empty SET, small floats.
INSERT INTO all_types VALUES (4,
    5, 128, 0, 5, 32768, 5, 8388608, 5, 2147483648, 5, 9223372036854775808, 7,
    0.00, 0, 0.0000000001,
    1.0e-5, 1.0e7,
    b'0', b'1111111111', b'1',
    0, '0000-00-00', '00:00:00', '-00:00:00.500000',
    '0000-00-00 00:00:00', '0000-00-00 00:00:00.000', '2020-00-00 00:00:00.000000',
    '0000-00-00 00:00:00', '0000-00-00 00:00:00.000',
    'ab', 'x', 'x', 'x', 'x', 'x', 'x',
    'ab', x'00', x'', x'', x'', x'',
    '', '', '{}', 'x');
