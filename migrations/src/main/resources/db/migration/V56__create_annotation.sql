-- Notes on the charts: an event that moves many series at once (an antivirus update, a Windows patch, an agent
-- upgrade), at a time or at a version, for every product, one product or one machine (both: that product on that
-- machine). Made by people (kind 'note') or by the server when a machine's run shows its environment changed since
-- that machine's previous run (kind 'environment': run_id saw it, after_run_id is the run it differs from, so a
-- change is noted once however many runs arrive together). Deleted like runs (soft, restorable until purged).
CREATE TABLE annotation (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind         text NOT NULL CHECK (kind IN ('note', 'environment')),
    at           timestamptz,
    product_id   bigint REFERENCES product (id) ON DELETE CASCADE,
    machine_id   bigint REFERENCES machine (id) ON DELETE CASCADE,
    version_id   bigint REFERENCES version (id) ON DELETE CASCADE,
    text         text NOT NULL CHECK (length(text) BETWEEN 1 AND 300),
    -- what changed, for an environment note ("antivirus", "OS, compiler"): the pages group machines by it
    subject      text CHECK (length(subject) <= 300),
    link         text CHECK (length(link) <= 500),
    run_id       uuid,
    after_run_id uuid,
    created_by   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    deletion_id  bigint,
    CHECK ((at IS NULL) <> (version_id IS NULL)),
    CHECK (version_id IS NULL OR product_id IS NOT NULL)
);
CREATE INDEX annotation_at_idx ON annotation (at) WHERE deletion_id IS NULL;
CREATE INDEX annotation_version_idx ON annotation (version_id) WHERE version_id IS NOT NULL;
CREATE UNIQUE INDEX annotation_change_once ON annotation (machine_id, after_run_id, text) WHERE after_run_id IS NOT NULL;

-- A summary triaged as caused by the infrastructure names the annotation of that event.
CREATE TABLE annotation_cause (
    summary_id    bigint PRIMARY KEY REFERENCES summary (id) ON DELETE CASCADE,
    annotation_id bigint NOT NULL REFERENCES annotation (id) ON DELETE CASCADE,
    set_by        text NOT NULL,
    set_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX annotation_cause_annotation_idx ON annotation_cause (annotation_id);

ALTER TABLE deletion ADD COLUMN annotation_id bigint;
ALTER TABLE deletion DROP CONSTRAINT deletion_kind_check;
ALTER TABLE deletion ADD CONSTRAINT deletion_kind_check
    CHECK (kind IN ('run', 'version', 'product', 'machine', 'branch', 'lab-agent', 'annotation'));
