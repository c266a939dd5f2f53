-- A step whose place the levels cannot pin to one version is reported with the versions it may start at: the
-- first and the last of that run (in version order; version_id is the likeliest of them). NULL for both: the step
-- is placed exactly at version_id. A suspect version that is purged leaves NULL (read as the step's own version).
ALTER TABLE regression
    ADD COLUMN first_suspect_version_id bigint REFERENCES version (id) ON DELETE SET NULL,
    ADD COLUMN last_suspect_version_id  bigint REFERENCES version (id) ON DELETE SET NULL;

-- Later versions that place such a step more closely (or spread it) say so in its history.
ALTER TABLE regression_event DROP CONSTRAINT regression_event_action_check;
ALTER TABLE regression_event ADD CONSTRAINT regression_event_action_check
    CHECK (action IN ('opened', 'reattributed', 'withdrawn', 'reopened', 'confirmed', 'placed'));
