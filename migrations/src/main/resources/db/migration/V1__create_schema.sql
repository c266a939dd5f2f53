-- perftrack schema. A series (product, machine, benchmark, metric) is the unit of comparison;
-- its points are the versions, ordered by version.sort_key (COLLATE "C"), never by upload time.

CREATE TABLE product (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE version (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    product_id  bigint NOT NULL REFERENCES product (id),
    name        text NOT NULL,
    -- made by VersionKey.of(name): byte order = meaning order (1.5.19-4 < 1.5.24-2 < 1.7.10)
    sort_key    text COLLATE "C" NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (product_id, name)
);
CREATE INDEX version_order_idx ON version (product_id, sort_key);

CREATE TABLE machine (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        text NOT NULL UNIQUE,
    os          text,
    cpu         text,
    cores       integer,
    memory_mb   bigint,
    attributes  jsonb NOT NULL DEFAULT '{}',
    first_seen  timestamptz NOT NULL DEFAULT now(),
    last_seen   timestamptz NOT NULL DEFAULT now()
);

-- The fingerprint of comparable results (conbench's idea): same product, machine, benchmark, metric.
CREATE TABLE series (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    product_id  bigint NOT NULL REFERENCES product (id),
    machine_id  bigint NOT NULL REFERENCES machine (id),
    benchmark   text NOT NULL,
    metric      text NOT NULL,
    unit        text NOT NULL,
    direction   text NOT NULL CHECK (direction IN ('lower_is_better', 'higher_is_better')),
    UNIQUE (product_id, machine_id, benchmark, metric)
);
CREATE INDEX series_benchmark_idx ON series (product_id, benchmark, metric);

CREATE TABLE run (
    id               uuid PRIMARY KEY,
    product_id       bigint NOT NULL REFERENCES product (id),
    version_id       bigint NOT NULL REFERENCES version (id),
    machine_id       bigint NOT NULL REFERENCES machine (id),
    suite            text NOT NULL,
    batch            uuid,
    started_at       timestamptz,
    finished_at      timestamptz,
    -- the machine as this run described it (machines change: OS updates, antivirus)
    machine_snapshot jsonb NOT NULL,
    attributes       jsonb NOT NULL DEFAULT '{}',
    failures         jsonb NOT NULL DEFAULT '[]',
    content_hash     text NOT NULL,
    received_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX run_version_idx ON run (version_id, machine_id);
CREATE INDEX run_received_idx ON run (received_at DESC);
CREATE INDEX run_machine_idx ON run (machine_id, received_at DESC);
CREATE INDEX run_batch_idx ON run (batch) WHERE batch IS NOT NULL;

-- Raw samples are kept; the summary columns are derived from them at insert time.
CREATE TABLE result (
    run_id      uuid NOT NULL REFERENCES run (id) ON DELETE CASCADE,
    series_id   bigint NOT NULL REFERENCES series (id),
    version_id  bigint NOT NULL REFERENCES version (id),
    samples     double precision[] NOT NULL,
    n           integer NOT NULL,
    min         double precision NOT NULL,
    median      double precision NOT NULL,
    mean        double precision NOT NULL,
    max         double precision NOT NULL,
    PRIMARY KEY (run_id, series_id)
);
-- the read path of a series: all results of one series, grouped by version
CREATE INDEX result_series_version_idx ON result (series_id, version_id);

CREATE TABLE api_token (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name          text NOT NULL,
    -- SHA-256 of the token: tokens are 256-bit random, so a fast hash is enough and lookups stay O(1)
    token_hash    text NOT NULL UNIQUE,
    created_by    text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_used_at  timestamptz,
    revoked_at    timestamptz
);

CREATE TABLE app_user (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username       text NOT NULL UNIQUE,
    password_hash  text NOT NULL,
    role           text NOT NULL DEFAULT 'USER' CHECK (role IN ('USER', 'ADMIN')),
    created_at     timestamptz NOT NULL DEFAULT now(),
    disabled_at    timestamptz
);
