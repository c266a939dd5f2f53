-- A lab agent belongs to the API token that registered it: only that token heartbeats it, claims its jobs
-- and reports them, and another token cannot register its product and machine while that token is valid.
-- Agents registered before have none: their next registration binds them.
ALTER TABLE lab_agent ADD COLUMN token_id bigint REFERENCES api_token (id);
CREATE INDEX lab_agent_token_idx ON lab_agent (token_id);
