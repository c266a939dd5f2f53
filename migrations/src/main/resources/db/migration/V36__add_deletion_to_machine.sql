-- A machine can be deleted with all its runs (soft: restorable until purged, like runs, versions and products):
-- deleting marks the machine, the pages and lists leave it out, and the purge removes its runs, series and lab agent.
ALTER TABLE machine ADD COLUMN deletion_id bigint;
ALTER TABLE deletion ALTER COLUMN product_id DROP NOT NULL;
ALTER TABLE deletion ADD COLUMN machine_id bigint;
ALTER TABLE deletion DROP CONSTRAINT deletion_kind_check;
ALTER TABLE deletion ADD CONSTRAINT deletion_kind_check CHECK (kind IN ('run', 'version', 'product', 'machine'));
