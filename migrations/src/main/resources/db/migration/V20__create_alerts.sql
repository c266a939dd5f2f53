-- Email alerts: who wants mail (subscriptions), what was announced (alert_regression), and the outbox
-- that carries each mail from the ingest transaction to SMTP exactly once, also with several servers.

-- Configured recipients (perftrack.alerts.recipients) are kept here too (source = 'config'), so that
-- every address has an unsubscribe token and one code path decides who gets what.
CREATE TABLE alert_subscription (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    email              text NOT NULL,
    source             text NOT NULL DEFAULT 'user' CHECK (source IN ('user', 'config')),
    -- glob patterns (* and ?), NULL matches everything
    product_pattern    text,
    machine_pattern    text,
    benchmark_pattern  text,
    -- |ratio - 1| in percent below which a regression is not worth a mail to this address
    min_change_percent double precision NOT NULL DEFAULT 0 CHECK (min_change_percent >= 0),
    mode               text NOT NULL DEFAULT 'immediate' CHECK (mode IN ('immediate', 'digest')),
    unsubscribe_token  text NOT NULL UNIQUE,
    created_by         text,
    created_at         timestamptz NOT NULL DEFAULT now(),
    unsubscribed_at    timestamptz
);
-- one row per configured address, also after it unsubscribed (so that a restart does not re-subscribe it)
CREATE UNIQUE INDEX alert_subscription_config_idx ON alert_subscription (lower(email)) WHERE source = 'config';

-- Every regression that reached the alerts, as it was then: the dedup key against second alarms for
-- one step (a re-attributed regression overlaps the announced version range) and the digest's source.
CREATE TABLE alert_regression (
    regression_id     bigint PRIMARY KEY,
    run_id            uuid NOT NULL,
    product           text NOT NULL,
    machine           text NOT NULL,
    benchmark         text NOT NULL,
    metric            text NOT NULL,
    baseline_key      text COLLATE "C" NOT NULL,
    version_key       text COLLATE "C" NOT NULL,
    announced         boolean NOT NULL,
    item              jsonb NOT NULL,
    created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alert_regression_series_idx ON alert_regression (product, machine, benchmark, metric);

-- One mail to one address. 'sending' rows carry a lease: a server that dies mid-send leaves a row whose
-- lease runs out, and another server (or the restarted one) takes it over.
CREATE TABLE alert_outbox (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind             text NOT NULL CHECK (kind IN ('run', 'digest')),
    -- the run whose upload created the regressions, or the digest's day: one mail per (key, address)
    dedup_key        text NOT NULL,
    recipient        text NOT NULL,
    subscription_id  bigint REFERENCES alert_subscription (id) ON DELETE SET NULL,
    subject          text NOT NULL,
    payload          jsonb NOT NULL,
    message_id       text NOT NULL UNIQUE,
    status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
    attempts         integer NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL DEFAULT now(),
    locked_by        text,
    locked_until     timestamptz,
    last_error       text,
    last_attempt_at  timestamptz,
    -- the insert's own time, not the transaction's start: queued → sent is the sender's latency
    created_at       timestamptz NOT NULL DEFAULT clock_timestamp(),
    sent_at          timestamptz,
    sent_by          text,
    UNIQUE (kind, dedup_key, recipient)
);
CREATE INDEX alert_outbox_due_idx ON alert_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX alert_outbox_lease_idx ON alert_outbox (locked_until) WHERE status = 'sending';
CREATE INDEX alert_outbox_recent_idx ON alert_outbox (created_at DESC);

-- The daily digest is made by whichever server first claims the day.
CREATE TABLE alert_digest_day (
    day         date PRIMARY KEY,
    made_by     text NOT NULL,
    made_at     timestamptz NOT NULL DEFAULT now()
);
