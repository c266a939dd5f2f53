-- Agents say which kinds of job they take (timing, confirm, profile); NULL: an agent from before kinds, which takes
-- timing jobs only (manual, schedule, new-version, bisection).
ALTER TABLE lab_agent ADD COLUMN kinds text[];

-- Two more reasons for a job: confirm (re-measure the suspect versions of unsure series) and profile (trace two
-- versions). Each reason belongs to one kind; the claim hands an agent only the kinds it takes.
ALTER TABLE lab_job DROP CONSTRAINT lab_job_reason_check;
ALTER TABLE lab_job ADD CONSTRAINT lab_job_reason_check
    CHECK (reason IN ('schedule', 'manual', 'new-version', 'bisection', 'confirm', 'profile'));
ALTER TABLE lab_job ADD COLUMN kind text NOT NULL
    GENERATED ALWAYS AS (CASE WHEN reason IN ('confirm', 'profile') THEN reason ELSE 'timing' END) STORED;

-- A job's plan: [{"benchmark", "metric", "versions": [...]}], each benchmark measured at its versions only. NULL for
-- the older kinds, which measure every benchmark of the flat list at every version of it.
ALTER TABLE lab_job ADD COLUMN plan jsonb;

-- The claim's one fairness rule reads when each reason was last started on a machine.
CREATE INDEX lab_job_served_idx ON lab_job (product, machine, reason, started_at);
