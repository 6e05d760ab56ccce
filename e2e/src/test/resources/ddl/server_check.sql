-- Fixture for MariaDbServerITCase: a table with a multi-line definition and seed rows.
CREATE TABLE customer (
    id BIGINT NOT NULL PRIMARY KEY,
    name VARCHAR(100) NOT NULL,
    note TEXT NULL
) ENGINE = InnoDB;

-- Two rows, one per statement.
INSERT INTO customer (id, name, note) VALUES (1, 'Ada', 'first');
INSERT INTO customer (id, name, note) VALUES (2, 'Grace', NULL);
