-- A result with raw samples keeps only them: its n, min, median, mean and max follow from the samples, and readers
-- derive them. Only a summary-only result (an empty samples array) keeps the statistics its tool wrote.
-- ALTER ... TYPE with USING rewrites each table once, compacted, rather than leaving a dead copy of every row.
ALTER TABLE result ALTER COLUMN n DROP NOT NULL, ALTER COLUMN mean DROP NOT NULL;
ALTER TABLE result
    ALTER COLUMN n TYPE integer USING CASE WHEN cardinality(samples) = 0 THEN n END,
    ALTER COLUMN min TYPE double precision USING CASE WHEN cardinality(samples) = 0 THEN min END,
    ALTER COLUMN median TYPE double precision USING CASE WHEN cardinality(samples) = 0 THEN median END,
    ALTER COLUMN mean TYPE double precision USING CASE WHEN cardinality(samples) = 0 THEN mean END,
    ALTER COLUMN max TYPE double precision USING CASE WHEN cardinality(samples) = 0 THEN max END;

ALTER TABLE result_set_aside ALTER COLUMN n DROP NOT NULL, ALTER COLUMN mean DROP NOT NULL;
ALTER TABLE result_set_aside
    ALTER COLUMN n TYPE integer USING CASE WHEN cardinality(samples) = 0 THEN n END,
    ALTER COLUMN min TYPE double precision USING CASE WHEN cardinality(samples) = 0 THEN min END,
    ALTER COLUMN median TYPE double precision USING CASE WHEN cardinality(samples) = 0 THEN median END,
    ALTER COLUMN mean TYPE double precision USING CASE WHEN cardinality(samples) = 0 THEN mean END,
    ALTER COLUMN max TYPE double precision USING CASE WHEN cardinality(samples) = 0 THEN max END;
