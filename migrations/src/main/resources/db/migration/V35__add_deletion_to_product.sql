-- A product can be deleted as a whole (soft: restorable until purged, like runs and versions). Deleting marks the
-- product only, in one short statement however long its history; the pages and lists leave a deleted product out,
-- and the purge removes its rows in short transactions of their own.
ALTER TABLE product ADD COLUMN deletion_id bigint;
ALTER TABLE deletion DROP CONSTRAINT deletion_kind_check;
ALTER TABLE deletion ADD CONSTRAINT deletion_kind_check CHECK (kind IN ('run', 'version', 'product'));
