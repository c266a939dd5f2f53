-- Curation: a run can be excluded from judgement (it stays stored and shown, struck through) and runs and versions
-- can be deleted (soft for a while, with undo, then purged). The results of an excluded or deleted run are set aside
-- in result_set_aside, so that everything that reads result (detection, charts, compare, series, bisection) counts
-- only the runs that count, with no filter of its own; including or restoring the run moves them back.
ALTER TABLE run
    ADD COLUMN excluded_at     timestamptz,
    ADD COLUMN excluded_by     text,
    ADD COLUMN excluded_reason text,
    -- the deletion that took the run away (soft: restorable until purged)
    ADD COLUMN deletion_id     bigint;
CREATE INDEX run_deletion_idx ON run (deletion_id) WHERE deletion_id IS NOT NULL;
CREATE INDEX run_excluded_idx ON run (excluded_at DESC) WHERE excluded_at IS NOT NULL;

CREATE TABLE result_set_aside (LIKE result INCLUDING DEFAULTS);
ALTER TABLE result_set_aside ADD PRIMARY KEY (run_id, series_id);

-- One delete an admin asked for: what it took away, by whom and when; purged (rows and all) after the keep time.
CREATE TABLE deletion (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind         text NOT NULL CHECK (kind IN ('run', 'version')),
    product_id   bigint NOT NULL,
    version_id   bigint,
    run_id       uuid,
    -- what the pages say it was ("run 3f1c… of cygwin 1.5.24-2 on xp-lab-01")
    description  text NOT NULL,
    runs         integer NOT NULL,
    deleted_by   text NOT NULL,
    deleted_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX deletion_age_idx ON deletion (deleted_at);

ALTER TABLE version ADD COLUMN deletion_id bigint;

-- Series whose data changed and which detection has not judged since: written in the transaction that changes the
-- data (an import's batch, an exclusion, a delete, a restore) and removed by the transaction that judges them, so
-- that no crash can leave stored data unjudged. Picked up at start-up and by the next upload or import of the series.
CREATE TABLE judging_due (
    series_id    bigint NOT NULL,
    version_id   bigint NOT NULL,
    -- why the data changed, for the regressions' history ("data excluded by alice"); NULL: new data (an import)
    reason       text,
    due_since    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (series_id, version_id)
);

-- Who changed what: curation, triage and settings.
CREATE TABLE audit_event (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at       timestamptz NOT NULL DEFAULT now(),
    actor    text NOT NULL,
    action   text NOT NULL,
    target   text NOT NULL,
    detail   text
);
CREATE INDEX audit_event_at_idx ON audit_event (at DESC, id DESC);

-- Points removed (the last counting run of a version excluded or deleted) drop the chart summaries over them too.
CREATE TRIGGER point_forgets_chart_summary_on_delete AFTER DELETE ON detection_point
  REFERENCING OLD TABLE AS written_points FOR EACH STATEMENT EXECUTE FUNCTION chart_summary_forget();
