-- Three tables for the SQL examples; (table, id, version) is unique per change.
CREATE TABLE orders (
    id INT NOT NULL PRIMARY KEY,
    status VARCHAR(16) NOT NULL,
    version INT NOT NULL
) DEFAULT CHARSET = utf8mb4;
CREATE TABLE order_items (
    id INT NOT NULL PRIMARY KEY,
    order_id INT NOT NULL,
    version INT NOT NULL
) DEFAULT CHARSET = utf8mb4;
CREATE TABLE users (
    id INT NOT NULL PRIMARY KEY,
    name VARCHAR(32) NOT NULL,
    version INT NOT NULL
) DEFAULT CHARSET = utf8mb4;
