-- 0003 (PostgreSQL): state schemas and quarantined tables, as ../0003_state_schema.sql explains.

ALTER TABLE tables DROP CONSTRAINT tables_status_check;
ALTER TABLE tables ADD CONSTRAINT tables_status_check
    CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'quarantined'));
ALTER TABLE tables ADD COLUMN state_schema        integer NOT NULL DEFAULT 0;      -- schema of `state`
ALTER TABLE tables ADD COLUMN quarantine_notified boolean NOT NULL DEFAULT false;  -- its thread was told

ALTER TABLE snapshots ADD COLUMN state_schema integer NOT NULL DEFAULT 0;  -- schema of `state`
