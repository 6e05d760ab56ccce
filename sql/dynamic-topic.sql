-- Canal's dynamicTopic example in SQL. Canal would write
--   canal.mq.dynamicTopic=shop.users,orders:shop\\.order.*,.*\\..*
-- i.e. shop.users to topic shop_users, every order table to one topic, the rest per table.
-- Here the same rules are a CASE expression; the first WHEN that matches wins, as in Canal.
-- (The sink's 'dynamic-topic' option also takes Canal's syntax as it is.)

SET 'execution.checkpointing.interval' = '5s';

-- Every change of the selected tables, read by ONE binlog reader. 'change' carries the whole
-- change event (no per-column conversion); the other columns are metadata, computed per row
-- only because they are declared: declare just the ones the statements use.
CREATE TABLE binlog (
    change RAW('io.sluice.serializers.event.ChangeEvent', 'ADdpby5zbHVpY2UuZnVuY3Rpb25zLnR5cGVzLkNoYW5nZUV2ZW50U2VyaWFsaXplclNuYXBzaG90AAAAAQAAAAI='),
    `database` STRING METADATA VIRTUAL,
    `table` STRING METADATA VIRTUAL,
    `type` STRING METADATA VIRTUAL
) WITH (
    'connector' = 'sluice-mysql',
    'hostname' = '${SOURCE_HOST}',
    'port' = '${SOURCE_PORT}',
    'username' = '${SOURCE_USER}',
    'password' = '${SOURCE_PASSWORD}',
    'tables' = '${DATABASE}.order.*;${DATABASE}.users'
);

CREATE TABLE mq (
    topic STRING METADATA
) WITH (
    'connector' = 'sluice-kafka',
    'bootstrap-servers' = '${KAFKA}',
    'format' = 'canal-flat',
    'transactional-id-prefix' = '${DATABASE}-dynamic-topic'
) LIKE binlog (EXCLUDING ALL);

INSERT INTO mq
SELECT change,
       CASE
           WHEN `table` = 'users' THEN CONCAT(`database`, '_users')
           WHEN `table` LIKE 'order%' THEN CONCAT(`database`, '_orders')
           ELSE CONCAT(`database`, '_', `table`)
       END AS topic
FROM binlog;
