-- Trigram index for message text search (ILIKE '%...%'). pg_trgm ships with PostgreSQL's
-- contrib modules; where it is not installed, text search still works by scanning.
DO $$
BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS ix_messages_text_trgm ON messages USING gin (text gin_trgm_ops);
EXCEPTION WHEN OTHERS THEN
    RAISE NOTICE 'pg_trgm unavailable, message text search will scan: %', SQLERRM;
END
$$;
