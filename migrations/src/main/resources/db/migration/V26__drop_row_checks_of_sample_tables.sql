-- The rows of the sample tables are written with ids that come from the same request: a result's run is
-- inserted in the same transaction, and detection writes a point only for a series and version that the
-- upload has just resolved. Products, versions, machines, series and runs are never deleted, so the
-- row-level checks of these foreign keys (an index lookup per row, 100 to 300 per upload) only cost time.
-- (V23 dropped result's series and version keys for the same reason.) Nothing deletes runs; were it ever
-- needed, their results must be deleted with them explicitly (there is no ON DELETE CASCADE any more).
ALTER TABLE result DROP CONSTRAINT IF EXISTS result_run_id_fkey;
ALTER TABLE detection_point DROP CONSTRAINT IF EXISTS detection_point_series_id_fkey,
                            DROP CONSTRAINT IF EXISTS detection_point_version_id_fkey;
