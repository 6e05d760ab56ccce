-- Canal's partitionHash example in SQL: every table into one topic of 3 partitions, order items
-- hashed by their order (all items of an order in one partition, in order), everything else by
-- its primary key. The rule syntax is Canal's canal.mq.partitionHash, unchanged:
--   canal.mq.partitionHash=shop.order_items:order_id,.*\\..*:$pk$
-- The message format here is Canal's protobuf (canal-binary).

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
    'format' = 'canal-binary',
    'partition-hash' = '${DATABASE}.order_items:order_id,.*\..*:$pk$',
    'transactional-id-prefix' = '${DATABASE}-partition-hash'
) LIKE binlog (EXCLUDING ALL);

INSERT INTO mq
SELECT change, CONCAT(`database`, '_all') AS topic
FROM binlog;
