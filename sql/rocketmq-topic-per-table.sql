-- One RocketMQ topic per table ("<database>_<table>"), key = primary key, tag = table, exactly once.
--   flink run -c io.sluice.job.SluiceSqlRunner sluice-job-*-job.jar sql/rocketmq-topic-per-table.sql \
--       --define SOURCE_HOST=db --define SOURCE_PORT=3306 --define SOURCE_USER=cdc \
--       --define SOURCE_PASSWORD=... --define DATABASE=shop --define NAME_SERVER=namesrv:9876

SET 'execution.checkpointing.interval' = '5s';

CREATE TABLE binlog (
    change RAW('io.sluice.serializers.event.ChangeEvent', 'ADdpby5zbHVpY2UuZnVuY3Rpb25zLnR5cGVzLkNoYW5nZUV2ZW50U2VyaWFsaXplclNuYXBzaG90AAAAAQAAAAI='),
    `database` STRING METADATA VIRTUAL,
    `table` STRING METADATA VIRTUAL
) WITH (
    'connector' = 'sluice-mysql',
    'hostname' = '${SOURCE_HOST}',
    'port' = '${SOURCE_PORT}',
    'username' = '${SOURCE_USER}',
    'password' = '${SOURCE_PASSWORD}',
    'tables' = '${DATABASE}.order.*;${DATABASE}.users'
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
) LIKE binlog (EXCLUDING ALL);

INSERT INTO mq
SELECT change, CONCAT(`database`, '_', `table`) AS topic
FROM binlog;
