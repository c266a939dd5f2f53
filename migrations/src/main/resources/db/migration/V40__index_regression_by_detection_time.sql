-- The regression list pages newest first by (detected_at, id) with a cursor ("older than this one"): this index
-- walks that order from any cursor and stops after one page, whatever the status, product or size asked for.
CREATE INDEX regression_detected_idx ON regression (detected_at, id);
