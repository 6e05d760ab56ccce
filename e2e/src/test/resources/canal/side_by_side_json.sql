-- CanalSideBySideITCase's MySQL JSON of every shape, on MySQL only, after side_by_side.sql (whose
-- sql_mode without strict checks lets the zero DATE and DATETIME in). Binlog rows: inserted,
-- updated into other shapes, and every row's document again in an update of another column
-- (the binary format's before image). The document texts both sides write are in
-- docs/value-rendering.md, "MySQL's own columns".

CREATE TABLE json_shapes (
    id INT NOT NULL,
    n INT NOT NULL,
    c_date DATE NULL,
    c_datetime DATETIME NULL,
    c_timestamp TIMESTAMP(6) NULL DEFAULT NULL,
    c_timestamp0 TIMESTAMP NULL DEFAULT NULL,
    c_blob BLOB NULL,
    c_bit BIT(3) NULL,
    doc JSON NULL,
    PRIMARY KEY (id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_general_ci;

-- One statement: temporal values (opaque TIME, DATE, DATETIME in JSON; negative and zero TIME;
-- MySQL stores 838:59:59 in a document as 630:59:59, past 100 hours all the same),
-- DECIMALs (opaque), bytes (opaque binary strings), control characters, quotes and text beyond the
-- BMP in strings and keys, empty and nested empty containers, top-level scalars.
INSERT INTO json_shapes (id, n, doc) VALUES
    (1, 0, JSON_OBJECT(
        'time', CAST('12:34:56' AS TIME),
        'time6', CAST('12:34:56.789012' AS TIME(6)),
        'time_zero', CAST('00:00:00' AS TIME),
        'time_fraction_only', CAST('00:00:00.5' AS TIME(1)),
        'time_negative', CAST('-01:02:03.5' AS TIME(1)),
        'time_negative_minutes', CAST('-00:30:00' AS TIME),
        'time_max', CAST('838:59:59' AS TIME),
        'date', CAST('2024-02-29' AS DATE),
        'datetime', CAST('2024-02-29 12:00:00' AS DATETIME),
        'datetime3', CAST('2024-02-29 12:00:00.120' AS DATETIME(3)),
        'datetime6', CAST('1000-01-01 00:00:00.000001' AS DATETIME(6)))),
    (2, 0, JSON_ARRAY(
        CAST(1.50 AS DECIMAL(5,2)), CAST(10.00 AS DECIMAL(5,2)), CAST(-0.001 AS DECIMAL(10,3)),
        CAST(0 AS DECIMAL(3,1)), CAST(100 AS DECIMAL(10,0)),
        CAST(-12345678901234567890.123456789 AS DECIMAL(30,9)))),
    (3, 0, JSON_OBJECT(
        'ascii', CAST('ab' AS BINARY), 'utf8', x'C3A9', 'zero_ff', x'00FF', 'ff', x'FF')),
    (4, 0, CAST('{"ctl": "tab\\there\\nnl\\rcr\\bbs\\fff\\u0001\\u001f\\u007f\\u0085\\u00a0", "nul": "a\\u0000b", "quote": "say \\"hi\\" \\\\ back", "non_bmp": "😀 𝄞 中文 ü", "key\\ttab": "😀\\n", "key\\"quote": 2, "clé 😀": "x"}' AS JSON)),
    (5, 0, '{}'),
    (6, 0, '[]'),
    (7, 0, '{"a": {}, "b": [], "c": [[], {}], "d": [{"e": []}]}'),
    (8, 0, '"just text"'),
    (9, 0, '42'),
    (10, 0, 'true'),
    (11, 0, 'null'),
    (12, 0, '-7.25'),
    (13, 0, CAST(CAST('2024-02-29 12:00:00.5' AS DATETIME(1)) AS JSON)),
    (14, 0, CAST(CAST(3.10 AS DECIMAL(4,2)) AS JSON)),
    (15, 0, '"line\\nbreak \\u0002"');

-- Columns into a document: TIMESTAMP (opaque in JSON), the zero DATE and DATETIME, BLOB and BIT.
INSERT INTO json_shapes VALUES (16, 0, '0000-00-00', '0000-00-00 00:00:00',
    '2024-02-29 12:00:00.5', '2024-02-29 12:00:00', x'C3A900', b'101', NULL);
UPDATE json_shapes SET doc = JSON_OBJECT('date', c_date, 'datetime', c_datetime,
    'timestamp', c_timestamp, 'timestamp0', c_timestamp0, 'blob', c_blob, 'bit', c_bit) WHERE id = 16;

-- Shapes into other shapes.
UPDATE json_shapes SET doc = '{"a": {}, "b": []}' WHERE id = 5;
UPDATE json_shapes SET doc = CAST(CAST('-838:59:59' AS TIME) AS JSON) WHERE id = 6;

-- Every document unchanged, in both images.
UPDATE json_shapes SET n = n + 1;
