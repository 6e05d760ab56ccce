-- Three tables a load writes in multi-table transactions: each row says which transaction (txn)
-- and which of its statements (stmt) wrote it last.
CREATE TABLE a (id INT NOT NULL PRIMARY KEY, txn INT NOT NULL, stmt INT NOT NULL);
CREATE TABLE b (id INT NOT NULL PRIMARY KEY, txn INT NOT NULL, stmt INT NOT NULL);
CREATE TABLE c (id INT NOT NULL PRIMARY KEY, txn INT NOT NULL, stmt INT NOT NULL);
-- Written until the first marker shows: the load then starts in the binlog phase, where markers are.
CREATE TABLE p (id INT NOT NULL PRIMARY KEY, txn INT NOT NULL, stmt INT NOT NULL);
