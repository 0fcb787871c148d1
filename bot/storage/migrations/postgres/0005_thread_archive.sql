-- 0005 (PostgreSQL): when a finished table's thread is archived and locked, as
-- ../0005_thread_archive.sql explains.

ALTER TABLE tables ADD COLUMN archive_due double precision;  -- NULL: nothing to archive

CREATE INDEX tables_archive_due ON tables (archive_due) WHERE archive_due IS NOT NULL;
