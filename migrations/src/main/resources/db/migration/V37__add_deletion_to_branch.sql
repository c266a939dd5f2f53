-- A branch can be deleted (soft: restorable until purged, like runs, versions, products and machines): deleting marks
-- the branch, its page, the lists and compare leave it out, and the purge removes it with its runs. A build sent to a
-- deleted branch's name starts a new branch of that name, so the name is unique among the branches not deleted.
ALTER TABLE branch ADD COLUMN deletion_id bigint;
ALTER TABLE branch DROP CONSTRAINT branch_product_id_name_key;
CREATE UNIQUE INDEX branch_live_name_idx ON branch (product_id, name) WHERE deletion_id IS NULL;
ALTER TABLE deletion ADD COLUMN branch_id bigint;
ALTER TABLE deletion DROP CONSTRAINT deletion_kind_check;
ALTER TABLE deletion ADD CONSTRAINT deletion_kind_check
    CHECK (kind IN ('run', 'version', 'product', 'machine', 'branch'));
