-- Deliveries are claimed by any instance for a while (a lease) and attempted when due.
ALTER TABLE webhook_deliveries ADD COLUMN next_attempt_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE webhook_deliveries ADD COLUMN round_attempts INT NOT NULL DEFAULT 0;
ALTER TABLE webhook_deliveries ADD COLUMN lease_owner UUID;
ALTER TABLE webhook_deliveries ADD COLUMN lease_until TIMESTAMP WITH TIME ZONE;
UPDATE webhook_deliveries SET next_attempt_at = updated_at WHERE status IN ('PENDING', 'RETRYING');
CREATE INDEX ix_deliveries_status_due ON webhook_deliveries (status, next_attempt_at);
