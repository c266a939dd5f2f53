-- A confirmation: the lab re-measures the suspect versions of one unsure claim, a round at a time (each round one
-- entry of its machine's confirm job), until the step is placed at one version, is withdrawn, or the rounds are
-- spent. One per regression; never two open ones for a series.
CREATE TABLE confirmation (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    product        text NOT NULL,
    machine        text NOT NULL,
    series_id      bigint NOT NULL,
    regression_id  bigint NOT NULL UNIQUE REFERENCES regression (id),
    benchmark      text NOT NULL,
    metric         text NOT NULL,
    -- the suspect versions and the one before them, in version order: what each round measures again
    versions       text[] NOT NULL CHECK (cardinality(versions) >= 2),
    status         text NOT NULL DEFAULT 'running'
                   CHECK (status IN ('running', 'placed', 'withdrawn', 'unsure', 'impossible')),
    rounds         integer NOT NULL DEFAULT 0,
    -- the confirm job of the round under way; NULL between rounds and when finished
    job_id         bigint REFERENCES lab_job (id),
    -- the job of the last round measured: what its agent is told happened
    last_job_id    bigint REFERENCES lab_job (id),
    -- what happened, as the regression's history and the lab say it
    outcome        text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    finished_at    timestamptz
);
CREATE UNIQUE INDEX confirmation_open_series_key ON confirmation (series_id) WHERE status = 'running';
CREATE INDEX confirmation_job_idx ON confirmation (job_id) WHERE job_id IS NOT NULL;
CREATE INDEX confirmation_last_job_idx ON confirmation (last_job_id) WHERE last_job_id IS NOT NULL;
