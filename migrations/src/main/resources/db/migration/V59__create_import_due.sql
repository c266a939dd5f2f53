-- An import's batches stored and not yet judged: one row per batch (its runs), deleted by the import's judging at
-- its end (it used to mark one judging_due row per (series, version) and delete them all again). A crash in between
-- leaves the row; the next start, import or upload of its series turns it into judging_due pairs and judges them.
CREATE TABLE import_due (
    import_id  uuid NOT NULL,
    run_ids    uuid[] NOT NULL,
    due_since  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX import_due_import_idx ON import_due (import_id);

-- judging_due now holds only pairs to judge by anyone: no import marks them
ALTER TABLE judging_due DROP COLUMN import_id;
