-- The runs of a session (a batch whose runs carry batchSize) that are stored and not judged yet. A session's runs
-- are judged together, in version order, once all of them are stored or no run of it arrived for the settle time
-- (perftrack.detection.batch-settle), by the transaction that deletes their rows here; a crash in between leaves
-- the rows, and the server judges them when it starts again. Detection leaves out the interleaved samples of a run
-- still listed here.
CREATE TABLE session_pending (
    run_id      uuid PRIMARY KEY REFERENCES run (id) ON DELETE CASCADE,
    batch_size  integer NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
);
