-- Profiles the lab measured: one benchmark at one version on one machine, per operation (system calls, resource
-- counters, CPU share by function), each sent by the agent of the profile job that asked for it. Raw tracer output
-- is kept capped (the strace -c table, perf's top functions); the server compares two versions' profiles.
CREATE TABLE profile (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id         bigint NOT NULL REFERENCES lab_job (id) ON DELETE CASCADE,
    product        text NOT NULL,
    machine        text NOT NULL,
    version        text NOT NULL,
    benchmark      text NOT NULL,
    operations     bigint NOT NULL CHECK (operations >= 0),
    syscalls       jsonb NOT NULL,
    counters       jsonb NOT NULL,
    functions      jsonb NOT NULL,
    missing        text[] NOT NULL,
    raw_syscalls   text CHECK (length(raw_syscalls) <= 65536),
    raw_functions  text CHECK (length(raw_functions) <= 65536),
    created_at     timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX profile_by_benchmark ON profile (product, machine, benchmark, version, id DESC);
CREATE INDEX profile_by_job ON profile (job_id);
