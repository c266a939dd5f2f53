-- The lab loop: agents that run unattended (lab_agent), the jobs they pull (lab_job, leased like the
-- alerts outbox), schedules that make jobs (lab_schedule), and bisections that narrow a regression's
-- version range to the first bad version (bisection, bisection_regression).

-- One agent per product and machine: the agent's identity is what it measures where.
CREATE TABLE lab_agent (
    id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    product               text NOT NULL,
    machine               text NOT NULL,
    agent_version         text,
    -- the interval the agent promised between heartbeats; three missed ones and it shows offline
    heartbeat_seconds     integer NOT NULL DEFAULT 60 CHECK (heartbeat_seconds > 0),
    -- the versions it can run now (explicit and discovered targets), as it last reported them
    targets               text[] NOT NULL DEFAULT '{}',
    registered_at         timestamptz NOT NULL DEFAULT now(),
    last_seen_at          timestamptz NOT NULL DEFAULT now(),
    -- the job it runs and how far it got (from its heartbeats)
    progress              text,
    consecutive_failures  integer NOT NULL DEFAULT 0,
    last_run_at           timestamptz,
    last_failure_at       timestamptz,
    last_failure          text,
    -- what the recipients were told last: silent / failing mails go out once, and once when it is back
    silent_mailed         boolean NOT NULL DEFAULT false,
    failing_mailed        boolean NOT NULL DEFAULT false,
    UNIQUE (product, machine)
);

-- A job: measure these versions interleaved, one batch, on one product's machine. Claimed with
-- FOR UPDATE SKIP LOCKED; the lease fences completion so a job is finished once, whoever ran it.
CREATE TABLE lab_job (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    product        text NOT NULL,
    machine        text NOT NULL,
    versions       text[] NOT NULL CHECK (cardinality(versions) >= 1),
    -- NULL: the benchmarks of the agent's config
    benchmarks     text[],
    reason         text NOT NULL CHECK (reason IN ('schedule', 'manual', 'new-version', 'bisection')),
    bisection_id   bigint,
    status         text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
    attempts       integer NOT NULL DEFAULT 0,
    agent_id       bigint REFERENCES lab_agent (id) ON DELETE SET NULL,
    lease          uuid,
    lease_until    timestamptz,
    progress       text,
    run_ids        uuid[] NOT NULL DEFAULT '{}',
    error          text,
    created_by     text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    started_at     timestamptz,
    finished_at    timestamptz
);
CREATE INDEX lab_job_queue_idx ON lab_job (product, machine, id) WHERE status = 'queued';
CREATE INDEX lab_job_lease_idx ON lab_job (lease_until) WHERE status = 'running';
CREATE INDEX lab_job_recent_idx ON lab_job (product, machine, finished_at DESC);

-- A cron schedule (Spring's CronExpression, six fields, UTC) for one machine or all machines of a product.
CREATE TABLE lab_schedule (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    product      text NOT NULL,
    -- NULL: every machine of the product that has an agent
    machine      text,
    cron         text NOT NULL,
    next_run_at  timestamptz NOT NULL,
    created_by   text,
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- A bisection: [last_good, first_bad] narrows round by round; each round is one lab job measuring
-- the middle version interleaved with the baseline and the regressed version.
CREATE TABLE bisection (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    product         text NOT NULL,
    machine         text NOT NULL,
    baseline        text NOT NULL,
    version         text NOT NULL,
    benchmarks      text[] NOT NULL,
    status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'running', 'done', 'impossible')),
    last_good       text NOT NULL,
    first_bad       text NOT NULL,
    rounds          integer NOT NULL DEFAULT 0,
    -- the round's middle version measured again because the first measurement was ambiguous
    remeasured      boolean NOT NULL DEFAULT false,
    job_id          bigint REFERENCES lab_job (id),
    reason          text,
    summary_id      bigint,
    requested_by    text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    finished_at     timestamptz
);
CREATE INDEX bisection_active_idx ON bisection (id) WHERE status IN ('pending', 'running');

-- The regressions a bisection serves (a summary's affected benchmarks share one).
CREATE TABLE bisection_regression (
    regression_id  bigint PRIMARY KEY REFERENCES regression (id),
    bisection_id   bigint NOT NULL REFERENCES bisection (id)
);
CREATE INDEX bisection_regression_bisection_idx ON bisection_regression (bisection_id);

-- Lab mails (silent agent, failing agent, back again, bisection result) travel through the alerts outbox.
ALTER TABLE alert_outbox DROP CONSTRAINT alert_outbox_kind_check;
ALTER TABLE alert_outbox ADD CONSTRAINT alert_outbox_kind_check CHECK (kind IN ('run', 'digest', 'summary', 'lab'));
