-- CanalSideBySideITCase's XA transactions, on MySQL only, after side_by_side.sql. Both write an XA
-- transaction's rows at XA PREPARE; Canal also writes an XACOMMIT or XAROLLBACK entry at the end.

CREATE TABLE xa_orders (id INT NOT NULL, note VARCHAR(16) NULL, PRIMARY KEY (id));

-- Prepared, then committed: two tables, a multi-row insert and an update.
XA START 'sbs-commit';
INSERT INTO xa_orders VALUES (1, 'two-phase'), (2, 'two-phase');
UPDATE all_types SET c_int = 7 WHERE id = 3;
XA END 'sbs-commit';
XA PREPARE 'sbs-commit';
XA COMMIT 'sbs-commit';

-- Prepared, then rolled back: its rows were in the binlog at XA PREPARE.
XA START 'sbs-rollback', 'branch', 7;
INSERT INTO xa_orders VALUES (3, 'rolled back');
XA END 'sbs-rollback', 'branch', 7;
XA PREPARE 'sbs-rollback', 'branch', 7;
XA ROLLBACK 'sbs-rollback', 'branch', 7;

-- One phase: no XA PREPARE.
XA START 'sbs-one-phase';
DELETE FROM xa_orders WHERE id = 2;
UPDATE xa_orders SET note = 'one phase' WHERE id = 1;
XA END 'sbs-one-phase';
XA COMMIT 'sbs-one-phase' ONE PHASE;
