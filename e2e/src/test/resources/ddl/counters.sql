-- Rows whose every change is distinguishable: (id, version) is unique per change.
CREATE TABLE counters (
    id INT NOT NULL PRIMARY KEY,
    version INT NOT NULL,
    note VARCHAR(32)
) DEFAULT CHARSET = utf8mb4;
