-- Issue 12 (hardening): API tokens carry scopes. upload: send runs; read: the API when public-read is off;
-- triage: change regressions, summaries and benchmark settings; admin: everything (subscribers' addresses).
-- Tokens made before scopes existed keep what agents and CI need: upload and read.
ALTER TABLE api_token ADD COLUMN scopes text[] NOT NULL DEFAULT '{upload,read}'
    CONSTRAINT api_token_scopes_known CHECK (cardinality(scopes) > 0 AND scopes <@ '{upload,read,triage,admin}'::text[]);
