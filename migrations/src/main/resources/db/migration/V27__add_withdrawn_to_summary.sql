-- A summary whose members detection re-attributed to other version pairs moves them to the summaries
-- of their new pairs; left empty, it is withdrawn (not closed: nobody triaged it, the data moved it),
-- with the reason and the summaries its members went to. A new member at its version reopens it.
ALTER TABLE summary DROP CONSTRAINT summary_status_check;
ALTER TABLE summary ADD CONSTRAINT summary_status_check
    CHECK (status IN ('open', 'acknowledged', 'invalid', 'fixed', 'wontfix', 'withdrawn'));
ALTER TABLE summary
    ADD COLUMN withdrawn_reason text,
    ADD COLUMN moved_to bigint[] NOT NULL DEFAULT '{}';
