-- Regression summaries: the regressions of one product at one version, across benchmarks, metrics and
-- machines ("what did 1.5.24-2 break?"). One summary per product and version; its members may have
-- different baselines (a machine that skipped a version). Membership is its own table, so that only
-- detection writes the regression table.
CREATE TABLE summary (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    product_id    bigint NOT NULL REFERENCES product (id),
    version_id    bigint NOT NULL REFERENCES version (id),
    status        text NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'acknowledged', 'invalid', 'fixed', 'wontfix')),
    note          text,
    triaged_by    text,
    opened_by_run uuid,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    UNIQUE (product_id, version_id)
);
CREATE INDEX summary_status_idx ON summary (status, updated_at DESC);

CREATE TABLE summary_member (
    regression_id bigint PRIMARY KEY REFERENCES regression (id),
    summary_id    bigint NOT NULL REFERENCES summary (id),
    added_by_run  uuid,
    added_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX summary_member_summary_idx ON summary_member (summary_id);
CREATE INDEX summary_member_run_idx ON summary_member (added_by_run) WHERE added_by_run IS NOT NULL;

-- The summary mails go through the alerts' outbox: one per new summary, one follow-up when it grew.
-- ('lab' is the lab's kind, added by its own migration too; listed here so either order keeps both.)
ALTER TABLE alert_outbox DROP CONSTRAINT alert_outbox_kind_check;
ALTER TABLE alert_outbox ADD CONSTRAINT alert_outbox_kind_check
    CHECK (kind IN ('run', 'digest', 'summary', 'lab'));
