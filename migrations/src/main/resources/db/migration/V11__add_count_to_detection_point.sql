-- How many samples each detection_point summarises: with few versions the between-session noise is
-- the within-run standard error scaled by a prior, and the test's degrees of freedom come from these
-- sample counts. Kept in the primary key's INCLUDE list so the window read stays index-only.
ALTER TABLE detection_point ADD COLUMN sample_count integer NOT NULL DEFAULT 0;
UPDATE detection_point p SET sample_count = c.n
FROM (SELECT r.series_id, r.version_id, sum(cardinality(r.samples))::integer AS n
      FROM result r GROUP BY r.series_id, r.version_id) AS c
WHERE c.series_id = p.series_id AND c.version_id = p.version_id;
ALTER TABLE detection_point DROP CONSTRAINT detection_point_pkey,
    ADD PRIMARY KEY (series_id, sort_key) INCLUDE (version_id, level, within_se, positive, sample_count);
ANALYZE detection_point;
