-- Issue 10: every change of mind of detection about a regression (opened, reattributed, withdrawn,
-- reopened), with its reason and time, shown as the regression's history. Version names and the ratio
-- and p-value are those of the pair at that moment (a later re-attribution does not rewrite the past).
CREATE TABLE regression_event (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    regression_id    bigint NOT NULL REFERENCES regression (id) ON DELETE CASCADE,
    at               timestamptz NOT NULL DEFAULT now(),
    action           text NOT NULL CHECK (action IN ('opened', 'reattributed', 'withdrawn', 'reopened')),
    reason           text,
    baseline_version text NOT NULL,
    version          text NOT NULL,
    ratio            double precision NOT NULL,
    p_value          double precision NOT NULL
);
CREATE INDEX regression_event_regression_idx ON regression_event (regression_id, at, id);

-- Regressions stored before this migration: what is known of their past (when found; when withdrawn, why).
INSERT INTO regression_event (regression_id, at, action, reason, baseline_version, version, ratio, p_value)
SELECT rg.id, rg.detected_at, 'opened', NULL, bv.name, v.name, rg.ratio, rg.p_value
FROM regression rg JOIN version bv ON bv.id = rg.baseline_version_id JOIN version v ON v.id = rg.version_id;

INSERT INTO regression_event (regression_id, at, action, reason, baseline_version, version, ratio, p_value)
SELECT rg.id, rg.updated_at, 'withdrawn', rg.withdrawn_reason, bv.name, v.name, rg.ratio, rg.p_value
FROM regression rg JOIN version bv ON bv.id = rg.baseline_version_id JOIN version v ON v.id = rg.version_id
WHERE rg.status = 'withdrawn';
