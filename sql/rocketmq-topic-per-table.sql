-- One RocketMQ topic per table ("<database>_<table>"), key = primary key, tag = table, exactly once.
--   ./sluice sql sql/rocketmq-topic-per-table.sql      (against embedded demo servers)
--   flink run -c io.sluice.job.SluiceSqlRunner sluice-job-*-job.jar sql/rocketmq-topic-per-table.sql \
--       --define SOURCE_HOST=db --define SOURCE_PORT=3306 --define SOURCE_USER=cdc \
--       --define SOURCE_PASSWORD=... --define DATABASE=shop --define NAME_SERVER=namesrv:9876

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

-- A row's queue is Canal's partitionHash over the topic's queue count (here: the primary key;
-- order items by their order, so an order's items share a queue). Each queue has one writer:
-- the sink routes every message to its queue's owner subtask.
CREATE TABLE mq (
    topic STRING METADATA
) WITH (
    'connector' = 'sluice-rocketmq',
    'name-server' = '${NAME_SERVER}',
    'producer-group' = '${DATABASE}-per-table',
    'format' = 'canal-flat',
    'partition-hash' = '${DATABASE}.order_items:order_id,.*\..*:$pk$',
    'sink.parallelism' = '2'
) LIKE cdc.${DATABASE}.changes (EXCLUDING ALL);

INSERT INTO mq
SELECT change, CONCAT(`database`, '_', `table`) AS topic
FROM cdc.${DATABASE}.changes;
