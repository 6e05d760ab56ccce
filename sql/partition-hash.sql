-- Canal's partitionHash example in SQL: every table into one topic of 3 partitions, order items
-- hashed by their order (all items of an order in one partition, in order), everything else by
-- its primary key. The rule syntax is Canal's canal.mq.partitionHash, unchanged:
--   canal.mq.partitionHash=shop.order_items:order_id,.*\\..*:$pk$
-- The message format here is Canal's protobuf (canal-binary).

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
    'format' = 'canal-binary',
    'partition-hash' = '${DATABASE}.order_items:order_id,.*\..*:$pk$',
    'transactional-id-prefix' = '${DATABASE}-partition-hash'
) LIKE cdc.${DATABASE}.changes (EXCLUDING ALL);

INSERT INTO mq
SELECT change, CONCAT(`database`, '_all') AS topic
FROM cdc.${DATABASE}.changes;
