-- A lab agent can be deleted (soft: restorable until purged, like runs, versions, products, machines and branches).
-- A deleted agent is left out of the lab and its product and machine may be registered again: only live agents are
-- unique.
ALTER TABLE lab_agent ADD COLUMN deletion_id bigint;
ALTER TABLE lab_agent DROP CONSTRAINT lab_agent_product_machine_key;
CREATE UNIQUE INDEX lab_agent_live_key ON lab_agent (product, machine) WHERE deletion_id IS NULL;
ALTER TABLE deletion ADD COLUMN lab_agent_id bigint;
ALTER TABLE deletion DROP CONSTRAINT deletion_kind_check;
ALTER TABLE deletion ADD CONSTRAINT deletion_kind_check
    CHECK (kind IN ('run', 'version', 'product', 'machine', 'branch', 'lab-agent'));
