CREATE TABLE items (
    id INT NOT NULL PRIMARY KEY,
    name VARCHAR(32) NOT NULL,
    price DECIMAL(10, 2) NOT NULL
) DEFAULT CHARSET = utf8mb4;

INSERT INTO items VALUES (1, 'apple', 1.50), (2, 'pear', 2.25), (3, 'fig', 10.00);
