-- A result may carry summary statistics instead of raw samples (pytest-benchmark autosaves, Google
-- Benchmark files of aggregates only, hyperfine's user and system time): such a result has an empty
-- samples array, its n and mean, and whichever of stddev, min, median and max the tool wrote.
ALTER TABLE result
    ADD COLUMN stddev double precision,
    ALTER COLUMN min DROP NOT NULL,
    ALTER COLUMN median DROP NOT NULL,
    ALTER COLUMN max DROP NOT NULL;

-- Bulk import loads results with COPY; their series and version come from the same transaction and are
-- never deleted, so the row-level checks of these two foreign keys (a lookup per row each) only cost time.
-- run_id keeps its key: deleting a run deletes its results. IF EXISTS: the scale work may drop them too.
ALTER TABLE result DROP CONSTRAINT IF EXISTS result_series_id_fkey,
                   DROP CONSTRAINT IF EXISTS result_version_id_fkey;
