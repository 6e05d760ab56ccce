-- Filtering tables, change types and rows by column value, in plain SQL. Two INSERTs in one
-- statement set: they read one change table, so they share its one binlog reader (one source in
-- the job graph).
--   * paid orders only (a row's 'data' map holds Canal's text of each column), no deletes;
--   * users, with their own topic;
--   * order_items: not selected by any INSERT, so never written.

SET 'execution.checkpointing.interval' = '5s';

-- The server's databases as change tables: cdc.<database>.changes holds every change of the
-- tables 'table-pattern' matches, read by ONE binlog reader. Each row is one change, with the
-- columns change, `database`, `table`, `type`, data, old, ... (docs/sql.md): no schema to write.
CREATE CATALOG cdc WITH (
    'type' = 'sluice',
    'hostname' = '${SOURCE_HOST}',
    'port' = '${SOURCE_PORT}',
    'username' = '${SOURCE_USER}',
    'password' = '${SOURCE_PASSWORD}',
    'table-pattern' = 'order.*|users'
);

-- One sink table per INSERT: the Kafka transactional ids come from the table's prefix, so two
-- INSERTs into one table would fence each other (the runner refuses that; use UNION ALL).
CREATE TABLE paid_orders (
    topic STRING METADATA
) WITH (
    'connector' = 'sluice-kafka',
    'bootstrap-servers' = '${KAFKA}',
    'format' = 'canal-flat',
    'transactional-id-prefix' = '${DATABASE}-paid-orders'
) LIKE cdc.${DATABASE}.changes (EXCLUDING ALL);

CREATE TABLE users (
    topic STRING METADATA
) WITH (
    'connector' = 'sluice-kafka',
    'bootstrap-servers' = '${KAFKA}',
    'format' = 'canal-flat',
    'transactional-id-prefix' = '${DATABASE}-users'
) LIKE cdc.${DATABASE}.changes (EXCLUDING ALL);

EXECUTE STATEMENT SET
BEGIN
    INSERT INTO paid_orders
    SELECT change, CONCAT(`database`, '_paid_orders') AS topic
    FROM cdc.${DATABASE}.changes
    WHERE `table` = 'orders' AND `type` IN ('INSERT', 'UPDATE') AND data['status'] = 'paid';

    INSERT INTO users
    SELECT change, CONCAT(`database`, '_users') AS topic
    FROM cdc.${DATABASE}.changes
    WHERE `table` = 'users';
END;
