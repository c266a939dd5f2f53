-- Detection: the steps it found (regressions and improvements), their triage, and per-benchmark settings.

-- The versions of each series in version order with what detection needs of their samples
-- (trimmed mean, within-run standard error of its log, all samples positive), so that detection
-- reads the window around a changed version with one index-only range scan, however long the
-- series grows. Kept up to date by detection on every stored run; rows for results stored before
-- this migration get their trimmed mean here (within_se NULL: unknown).
CREATE TABLE detection_point (
    series_id   bigint NOT NULL REFERENCES series (id),
    sort_key    text COLLATE "C" NOT NULL,
    version_id  bigint NOT NULL REFERENCES version (id),
    level       double precision NOT NULL,
    within_se   double precision,
    positive    boolean NOT NULL,
    PRIMARY KEY (series_id, sort_key) INCLUDE (version_id, level, within_se, positive)
);
INSERT INTO detection_point (series_id, sort_key, version_id, level, within_se, positive)
SELECT series_id, sort_key, version_id,
       avg(x) FILTER (WHERE i > floor(n * 0.2) AND i <= n - floor(n * 0.2)), NULL, bool_and(x > 0)
FROM (SELECT r.series_id, v.sort_key, v.id AS version_id, u.x,
             row_number() OVER (PARTITION BY r.series_id, v.id ORDER BY u.x) AS i,
             count(*) OVER (PARTITION BY r.series_id, v.id) AS n
      FROM result r JOIN version v ON v.id = r.version_id, unnest(r.samples) AS u(x)) AS samples
GROUP BY series_id, sort_key, version_id;
ANALYZE detection_point;

-- One row per step of one series, keyed by the series and its version pair (baseline → version).
-- A step keeps its row when later data moves it (re-attribution) or shows it was one bad session
-- (status withdrawn, with the reason); triaged rows keep the status a person gave them.
CREATE TABLE regression (
    id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    series_id            bigint NOT NULL REFERENCES series (id),
    baseline_version_id  bigint NOT NULL REFERENCES version (id),
    version_id           bigint NOT NULL REFERENCES version (id),
    kind                 text NOT NULL CHECK (kind IN ('regression', 'improvement')),
    baseline_value       double precision NOT NULL,
    value                double precision NOT NULL,
    ratio                double precision NOT NULL,
    p_value              double precision NOT NULL,
    status               text NOT NULL DEFAULT 'open'
                         CHECK (status IN ('open', 'acknowledged', 'invalid', 'fixed', 'wontfix', 'withdrawn')),
    note                 text,
    triaged_by           text,
    withdrawn_reason     text,
    -- the other metrics of the same benchmark across the same version pair: [{metric, unit, ratio}]
    hints                jsonb NOT NULL DEFAULT '[]',
    created_by_run       uuid REFERENCES run (id) ON DELETE SET NULL,
    detected_at          timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX regression_series_version_idx ON regression (series_id, version_id);
CREATE INDEX regression_status_idx ON regression (status, detected_at DESC);
CREATE INDEX regression_created_by_run_idx ON regression (created_by_run) WHERE created_by_run IS NOT NULL;

-- Per-benchmark knobs of a product: a minimum change worth flagging (NULL: the default,
-- max(2 %, between-session noise)) and "ignore this benchmark".
CREATE TABLE benchmark_setting (
    product_id   bigint NOT NULL REFERENCES product (id),
    benchmark    text NOT NULL,
    min_change   double precision CHECK (min_change IS NULL OR (min_change >= 0 AND min_change < 10)),
    ignored      boolean NOT NULL DEFAULT false,
    updated_by   text,
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (product_id, benchmark)
);
