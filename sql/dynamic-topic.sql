-- Canal's dynamicTopic example in SQL. Canal would write
--   canal.mq.dynamicTopic=shop.users,orders:shop\\.order.*,.*\\..*
-- i.e. shop.users to topic shop_users, every order table to one topic, the rest per table.
-- Here the same rules are a CASE expression; the first WHEN that matches wins, as in Canal.
-- (The sink's 'dynamic-topic' option also takes Canal's syntax as it is.)

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

CREATE TABLE mq (
    topic STRING METADATA
) WITH (
    'connector' = 'sluice-kafka',
    'bootstrap-servers' = '${KAFKA}',
    'format' = 'canal-flat',
    'transactional-id-prefix' = '${DATABASE}-dynamic-topic'
) LIKE cdc.${DATABASE}.changes (EXCLUDING ALL);

INSERT INTO mq
SELECT change,
       CASE
           WHEN `table` = 'users' THEN CONCAT(`database`, '_users')
           WHEN `table` LIKE 'order%' THEN CONCAT(`database`, '_orders')
           ELSE CONCAT(`database`, '_', `table`)
       END AS topic
FROM cdc.${DATABASE}.changes;
