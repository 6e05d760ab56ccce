-- CanalSideBySideITCase's MariaDB types, on MariaDB only, after side_by_side.sql: UUID, INET4 and
-- INET6, each 16 or 4 bytes in the binlog. UUIDs of several versions and variants; the smallest and
-- largest values of each type, whose binlog bytes end in zero bytes or are all zero. Inserted,
-- copied in one statement, updated, deleted, and columns added by an ALTER TABLE.

CREATE TABLE mariadb_ids (
    id INT NOT NULL,
    u UUID NULL,
    i4 INET4 NULL,
    i6 INET6 NULL,
    PRIMARY KEY (id)
) DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_general_ci;
INSERT INTO mariadb_ids VALUES (1, '123e4567-e89b-12d3-a456-426614174000', '192.0.2.1', '2001:db8::1'),
    (2, '00000000-0000-0000-0000-000000000000', '0.0.0.0', '::'),
    (3, 'ffffffff-ffff-ffff-ffff-ffffffffffff', '255.255.255.255', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'),
    (4, '01234567-89ab-4def-8123-456789abcdef', '10.0.0.0', '::ffff:192.0.2.128'),
    (5, '01234567-89ab-7def-c123-456789abcdef', '1.2.3.4', '1::'),
    (6, NULL, NULL, NULL);
INSERT INTO mariadb_ids SELECT id + 10, u, i4, i6 FROM mariadb_ids WHERE id <= 2;
UPDATE mariadb_ids SET u = '6ccd780c-baba-1026-9564-5b8c656024db', i4 = '127.0.0.1', i6 = '::1' WHERE id = 1;
DELETE FROM mariadb_ids WHERE id = 4;
ALTER TABLE mariadb_ids ADD COLUMN added_u UUID NULL AFTER id, ADD COLUMN added_i6 INET6 NULL;
INSERT INTO mariadb_ids (id, added_u, added_i6) VALUES (20, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'fe80::1');
