-- Webhooks: alerts posted to chat (Slack, Mattermost, Teams, Matrix) or as signed JSON, through the mail's outbox:
-- one outbox row per event and webhook (kind 'webhook'), written in the transaction that made the event; its
-- message_id is the delivery id a receiver dedupes on, the same on every retry.
CREATE TABLE alert_webhook (
    id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind               text NOT NULL CHECK (kind IN ('slack', 'teams', 'matrix', 'json')),
    url                text NOT NULL,
    -- the HMAC key (json) or the access token (matrix): shown once when made, never read back by the API
    secret             text,
    -- the mail subscriptions' filters: glob patterns (* and ?), NULL matches everything
    product_pattern    text,
    machine_pattern    text,
    benchmark_pattern  text,
    min_change_percent double precision NOT NULL DEFAULT 0 CHECK (min_change_percent >= 0),
    events             text[] NOT NULL,
    created_by         text,
    created_at         timestamptz NOT NULL DEFAULT now(),
    -- a 410 Gone (a revoked Slack URL) disables it: nothing more is queued or sent to it
    disabled_at        timestamptz,
    disabled_reason    text
);

ALTER TABLE alert_outbox ADD COLUMN webhook_id bigint REFERENCES alert_webhook (id) ON DELETE CASCADE;
-- the HTTP status the receiver answered on the last attempt (a webhook's deliveries only)
ALTER TABLE alert_outbox ADD COLUMN answer_code integer;
ALTER TABLE alert_outbox DROP CONSTRAINT alert_outbox_kind_check;
ALTER TABLE alert_outbox ADD CONSTRAINT alert_outbox_kind_check
    CHECK (kind IN ('run', 'digest', 'summary', 'lab', 'webhook'));
ALTER TABLE alert_outbox ADD CONSTRAINT alert_outbox_webhook_check CHECK ((kind = 'webhook') = (webhook_id IS NOT NULL));
CREATE INDEX alert_outbox_webhook_idx ON alert_outbox (webhook_id, id DESC) WHERE webhook_id IS NOT NULL;
