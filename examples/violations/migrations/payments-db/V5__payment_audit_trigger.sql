SET SESSION lock_wait_timeout = 5;
DELIMITER $$
CREATE TRIGGER payments_audit AFTER UPDATE ON payments FOR EACH ROW
BEGIN
    INSERT INTO payment_audit (payment_id, changed_at) VALUES (NEW.id, NOW());
END$$
DELIMITER ;
ALTER TABLE payments ADD INDEX idx_payments_created (created_at);
