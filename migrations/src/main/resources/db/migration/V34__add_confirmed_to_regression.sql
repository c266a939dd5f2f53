-- A step at the newest version is reported by the upload that brought it, before any later version could
-- show that it persists: unconfirmed until a later version (or a backfilled one after it) shows the new level.
-- Existing rows count as confirmed: they were opened under rules that waited for the next version unless the change was 50 % or more.
ALTER TABLE regression ADD COLUMN confirmed boolean NOT NULL DEFAULT true;
-- the run whose upload confirmed it (its 201 names it), NULL when confirmed at creation
ALTER TABLE regression ADD COLUMN confirmed_by_run uuid REFERENCES run (id) ON DELETE SET NULL;
CREATE INDEX regression_confirmed_by_run_idx ON regression (confirmed_by_run) WHERE confirmed_by_run IS NOT NULL;

-- its history says when a later version confirmed it
ALTER TABLE regression_event DROP CONSTRAINT regression_event_action_check;
ALTER TABLE regression_event ADD CONSTRAINT regression_event_action_check
    CHECK (action IN ('opened', 'reattributed', 'withdrawn', 'reopened', 'confirmed'));
