-- What requests sent with the caller's own provider key cost: recorded, never debited from a budget.
ALTER TABLE virtual_key_spend ADD COLUMN byok_cost_nanos BIGINT NOT NULL DEFAULT 0;
