-- Branches (a pull request's builds, say): runs measured on a branch are judged against the default branch's history
-- up to their start point and kept apart from it. The default branch's tables (run, result, version, series,
-- detection_point, regression, summary) never hold a branch's data, so nothing that reads them sees a branch.
CREATE TABLE branch (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    product_id   bigint NOT NULL REFERENCES product (id) ON DELETE CASCADE,
    name         text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_run_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (product_id, name)
);
-- pruning finds the branches without runs for a while
CREATE INDEX branch_last_run_idx ON branch (last_run_at);

-- One build of a branch measured on one machine; start_version_id is the default branch's version it is judged
-- against (with the history up to it).
CREATE TABLE branch_run (
    id                uuid PRIMARY KEY,
    branch_id         bigint NOT NULL REFERENCES branch (id) ON DELETE CASCADE,
    version           text NOT NULL,
    machine_id        bigint NOT NULL REFERENCES machine (id) ON DELETE CASCADE,
    start_version_id  bigint NOT NULL REFERENCES version (id) ON DELETE CASCADE,
    suite             text NOT NULL,
    started_at        timestamptz,
    finished_at       timestamptz,
    attributes        jsonb NOT NULL DEFAULT '{}',
    failures          jsonb NOT NULL DEFAULT '[]',
    content_hash      text NOT NULL,
    received_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX branch_run_branch_idx ON branch_run (branch_id, received_at);

-- Each result of a branch run, in its series' unit when the default branch has the series, with its verdict
-- against the start point: regression, improvement, unchanged, insufficient-data (no history to judge against),
-- or NULL (a secondary metric, shown beside its benchmark, not judged).
CREATE TABLE branch_result (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id            uuid NOT NULL REFERENCES branch_run (id) ON DELETE CASCADE,
    series_id         bigint REFERENCES series (id) ON DELETE SET NULL,
    benchmark         text NOT NULL,
    metric            text NOT NULL,
    unit              text NOT NULL,
    direction         text NOT NULL CHECK (direction IN ('lower_is_better', 'higher_is_better')),
    samples           double precision[] NOT NULL,
    n                 integer NOT NULL,
    mean              double precision,
    median            double precision,
    stddev            double precision,
    verdict           text CHECK (verdict IN ('regression', 'improvement', 'unchanged', 'insufficient-data')),
    baseline_version  text,
    baseline_value    double precision,
    value             double precision,
    ratio             double precision,
    p_value           double precision,
    UNIQUE (run_id, benchmark, metric)
);
