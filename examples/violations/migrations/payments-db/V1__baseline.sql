CREATE TABLE payments (
    id         bigint NOT NULL AUTO_INCREMENT PRIMARY KEY,
    amount     int NOT NULL,
    memo       varchar(50),
    state      ENUM('new', 'paid', 'failed') NOT NULL DEFAULT 'new',
    created_at datetime NOT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE refunds (
    id         bigint NOT NULL PRIMARY KEY,
    payment_id bigint NOT NULL REFERENCES payments (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
