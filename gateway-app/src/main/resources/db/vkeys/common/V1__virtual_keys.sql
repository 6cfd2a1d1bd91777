CREATE TABLE virtual_keys (
    id VARCHAR(40) PRIMARY KEY,
    secret_hash VARCHAR(64) NOT NULL,
    name VARCHAR(200) NOT NULL,
    owner VARCHAR(200),
    models VARCHAR(4000) NOT NULL,
    requests_per_minute BIGINT,
    tokens_per_minute BIGINT,
    budget_nanos BIGINT,
    budget_period VARCHAR(10),
    expires_at BIGINT,
    revoked_at BIGINT,
    created_at BIGINT NOT NULL
);

-- What a key has spent and holds reserved in one budget period (its first day, UTC).
CREATE TABLE virtual_key_budgets (
    key_id VARCHAR(40) NOT NULL,
    period_start VARCHAR(10) NOT NULL,
    spent_nanos BIGINT NOT NULL DEFAULT 0,
    reserved_nanos BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (key_id, period_start)
);

-- Spend per key, UTC day and model (the model that answered, fallbacks included).
CREATE TABLE virtual_key_spend (
    key_id VARCHAR(40) NOT NULL,
    spend_day VARCHAR(10) NOT NULL,
    model VARCHAR(300) NOT NULL,
    cost_nanos BIGINT NOT NULL DEFAULT 0,
    prompt_tokens BIGINT NOT NULL DEFAULT 0,
    completion_tokens BIGINT NOT NULL DEFAULT 0,
    requests BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (key_id, spend_day, model)
);
