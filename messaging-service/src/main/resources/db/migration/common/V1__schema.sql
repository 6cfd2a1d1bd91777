-- Messaging schema. Runs unchanged on PostgreSQL and on H2 in PostgreSQL mode.
-- Every list is keyset-paginated on (created_at, id): each has an index that serves
-- its filter and that order.

CREATE TABLE instances (
    id          UUID PRIMARY KEY,
    name        VARCHAR(100) NOT NULL,
    channel     VARCHAR(32) NOT NULL,
    status      VARCHAR(32) NOT NULL,
    settings    VARCHAR NOT NULL,
    created_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at  TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT uk_instances_name UNIQUE (name)
);
CREATE INDEX ix_instances_created ON instances (created_at, id);

CREATE TABLE chats (
    id               UUID PRIMARY KEY,
    instance_id      UUID NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    remote_id        VARCHAR(200) NOT NULL,
    name             VARCHAR(200),
    type             VARCHAR(16) NOT NULL,
    archived         BOOLEAN NOT NULL DEFAULT FALSE,
    pinned           BOOLEAN NOT NULL DEFAULT FALSE,
    muted            BOOLEAN NOT NULL DEFAULT FALSE,
    message_count    BIGINT NOT NULL DEFAULT 0,
    unread_count     BIGINT NOT NULL DEFAULT 0,
    last_message_at  TIMESTAMP WITH TIME ZONE,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT uk_chats_remote UNIQUE (instance_id, remote_id)
);
CREATE INDEX ix_chats_instance_created ON chats (instance_id, created_at, id);
CREATE INDEX ix_chats_created ON chats (created_at, id);

CREATE TABLE messages (
    id               UUID PRIMARY KEY,
    chat_id          UUID NOT NULL REFERENCES chats (id) ON DELETE CASCADE,
    instance_id      UUID NOT NULL,
    direction        VARCHAR(8) NOT NULL,
    type             VARCHAR(16) NOT NULL,
    status           VARCHAR(16) NOT NULL,
    text             VARCHAR,
    media_url        VARCHAR(2048),
    media_mime_type  VARCHAR(100),
    idempotency_key  VARCHAR(200),
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT uk_messages_idempotency UNIQUE (instance_id, idempotency_key)
);
CREATE INDEX ix_messages_chat_created ON messages (chat_id, created_at, id);
CREATE INDEX ix_messages_instance_created ON messages (instance_id, created_at, id);
CREATE INDEX ix_messages_created ON messages (created_at, id);

CREATE TABLE events (
    id           UUID PRIMARY KEY,
    instance_id  UUID,
    type         VARCHAR(64) NOT NULL,
    subject_id   UUID,
    payload      VARCHAR NOT NULL,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX ix_events_created ON events (created_at, id);
CREATE INDEX ix_events_instance_created ON events (instance_id, created_at, id);
CREATE INDEX ix_events_type_created ON events (type, created_at, id);

CREATE TABLE api_keys (
    id            UUID PRIMARY KEY,
    name          VARCHAR(100) NOT NULL,
    key_hash      CHAR(64) NOT NULL,
    key_prefix    VARCHAR(16) NOT NULL,
    scopes        VARCHAR(64) NOT NULL,
    instance_ids  VARCHAR,
    created_at    TIMESTAMP WITH TIME ZONE NOT NULL,
    revoked_at    TIMESTAMP WITH TIME ZONE,
    CONSTRAINT uk_api_keys_hash UNIQUE (key_hash)
);
CREATE INDEX ix_api_keys_created ON api_keys (created_at, id);

CREATE TABLE webhooks (
    id           UUID PRIMARY KEY,
    instance_id  UUID NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
    url          VARCHAR(2048) NOT NULL,
    event_types  VARCHAR NOT NULL,
    secret       VARCHAR(200) NOT NULL,
    active       BOOLEAN NOT NULL DEFAULT TRUE,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at   TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX ix_webhooks_instance ON webhooks (instance_id, created_at, id);
CREATE INDEX ix_webhooks_created ON webhooks (created_at, id);

CREATE TABLE webhook_deliveries (
    id                UUID PRIMARY KEY,
    webhook_id        UUID NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id          UUID NOT NULL,
    instance_id       UUID NOT NULL,
    status            VARCHAR(16) NOT NULL,
    attempts          INT NOT NULL DEFAULT 0,
    last_status_code  INT,
    last_error        VARCHAR(1000),
    delivered_at      TIMESTAMP WITH TIME ZONE,
    created_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at        TIMESTAMP WITH TIME ZONE NOT NULL
);
CREATE INDEX ix_deliveries_status_created ON webhook_deliveries (status, created_at, id);
CREATE INDEX ix_deliveries_webhook_created ON webhook_deliveries (webhook_id, created_at, id);
