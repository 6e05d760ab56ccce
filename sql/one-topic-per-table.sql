-- One topic per table: what Canal's canal.mq.dynamicTopic=.*\\..* does, topic "<database>_<table>".
--   ./sluice sql sql/one-topic-per-table.sql      (against embedded demo servers)
--   flink run -c io.sluice.job.SluiceSqlRunner sluice-job-*-job.jar sql/one-topic-per-table.sql \
--       --define SOURCE_HOST=db --define SOURCE_PORT=3306 --define SOURCE_USER=cdc \
--       --define SOURCE_PASSWORD=... --define DATABASE=shop --define KAFKA=kafka:9092

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

-- The sink copies the change column from the catalog's table (LIKE) and adds a writable 'topic'.
CREATE TABLE mq (
    topic STRING METADATA
) WITH (
    'connector' = 'sluice-kafka',
    'bootstrap-servers' = '${KAFKA}',
    'format' = 'canal-flat',
    'transactional-id-prefix' = '${DATABASE}-per-table'
) LIKE cdc.${DATABASE}.changes (EXCLUDING ALL);

INSERT INTO mq
SELECT change, CONCAT(`database`, '_', `table`) AS topic
FROM cdc.${DATABASE}.changes;
