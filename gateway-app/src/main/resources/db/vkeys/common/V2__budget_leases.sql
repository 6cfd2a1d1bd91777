-- What the last block of budget taken in a period was granted, read back by the statement that takes it.
ALTER TABLE virtual_key_budgets ADD COLUMN last_lease_nanos BIGINT NOT NULL DEFAULT 0;
