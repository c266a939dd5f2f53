-- A result may carry summary statistics instead of raw samples (pytest-benchmark autosaves, Google
-- Benchmark files of aggregates only, hyperfine's user and system time): such a result has an empty
-- samples array, its n and mean, and whichever of stddev, min, median and max the tool wrote.
ALTER TABLE result
    ADD COLUMN stddev double precision,
    ALTER COLUMN min DROP NOT NULL,
    ALTER COLUMN median DROP NOT NULL,
    ALTER COLUMN max DROP NOT NULL;
