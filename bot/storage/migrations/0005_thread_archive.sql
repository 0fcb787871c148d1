-- 0005: finished threads are archived and locked after a delay (the table option archive_minutes).
--
-- tables.archive_due: unix seconds when the table's thread is to be archived and locked; NULL when
-- there is nothing to do (never planned, the table option says never, or already done). A restart
-- finds the rows still due here, so an archive planned before it is not lost. Tables that ended
-- before this migration keep NULL: their threads are left as they are rather than all edited at once.

ALTER TABLE tables ADD COLUMN archive_due REAL;

CREATE INDEX tables_archive_due ON tables (archive_due) WHERE archive_due IS NOT NULL;
