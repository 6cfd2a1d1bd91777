-- API keys may expire, and the instances a key is limited to are also rows of their own, so
-- that a key limited to some instances lists only the keys limited to (some of) the same.
ALTER TABLE api_keys ADD COLUMN expires_at TIMESTAMP WITH TIME ZONE;

CREATE TABLE api_key_instances (
    key_id       UUID NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    instance_id  UUID NOT NULL,
    PRIMARY KEY (key_id, instance_id)
);
CREATE INDEX ix_api_key_instances_instance ON api_key_instances (instance_id, key_id);

-- instance_ids holds comma-separated UUIDs (36 characters each, 37 with the comma), at most 1000.
INSERT INTO api_key_instances (key_id, instance_id)
SELECT k.id, CAST(SUBSTRING(k.instance_ids, n.i * 37 + 1, 36) AS UUID)
FROM api_keys k
JOIN (SELECT a.d + 10 * b.d + 100 * c.d AS i
      FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) AS a (d)
      CROSS JOIN (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) AS b (d)
      CROSS JOIN (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) AS c (d)) n
  ON n.i * 37 < LENGTH(k.instance_ids)
WHERE k.instance_ids IS NOT NULL;
