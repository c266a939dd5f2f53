-- A regression raised by judging series again (stale, curated, an import's unfinished series) has no upload: its
-- announcement records no run rather than an id of a run that never existed.
ALTER TABLE alert_regression ALTER COLUMN run_id DROP NOT NULL;
