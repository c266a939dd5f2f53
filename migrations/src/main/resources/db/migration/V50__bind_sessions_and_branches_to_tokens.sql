-- A session (a batch of runs of one product and machine, as sessions are judged): the API token its first run
-- came with and the batchSize it gave. Later runs of it must come with the same token and size (409 otherwise):
-- whoever read a batch id from a run cannot hold another's session open, have it judged early with batchSize 1, or
-- add runs to it. Sessions of runs stored before this table get their row from their next run.
CREATE TABLE run_session (
    batch       uuid NOT NULL,
    product_id  bigint NOT NULL REFERENCES product (id) ON DELETE CASCADE,
    machine_id  bigint NOT NULL REFERENCES machine (id) ON DELETE CASCADE,
    token_id    bigint,
    batch_size  integer,
    opened_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (batch, product_id, machine_id)
);

-- The API token whose run started a branch: perftrack.branches.max-per-token counts a token's live branches (one
-- upload token made 20,000). Branches started before this column count for no token.
ALTER TABLE branch ADD COLUMN token_id bigint;
CREATE INDEX branch_token ON branch (token_id) WHERE deletion_id IS NULL AND token_id IS NOT NULL;
