-- One topic per table: what Canal's canal.mq.dynamicTopic=.*\\..* does, topic "<database>_<table>".
--   flink run -c io.sluice.job.SluiceSqlRunner sluice-job-*-job.jar sql/one-topic-per-table.sql \
--       --define SOURCE_HOST=db --define SOURCE_PORT=3306 --define SOURCE_USER=cdc \
--       --define SOURCE_PASSWORD=... --define DATABASE=shop --define KAFKA=kafka:9092

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

-- The sink takes the change column from the source (LIKE) and a writable 'topic'.
CREATE TABLE mq (
    topic STRING METADATA
) WITH (
    'connector' = 'sluice-kafka',
    'bootstrap-servers' = '${KAFKA}',
    'format' = 'canal-flat',
    'transactional-id-prefix' = '${DATABASE}-per-table'
) LIKE binlog (EXCLUDING ALL);

INSERT INTO mq
SELECT change, CONCAT(`database`, '_', `table`) AS topic
FROM binlog;
