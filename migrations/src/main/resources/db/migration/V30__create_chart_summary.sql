-- The series chart of a long history is drawn from buckets of consecutive versions (median, lowest and highest of
-- their levels). Reading every detection point of the shown series for it grows with history (40,000 points for 20
-- machines × 2,000 versions); these tables keep the buckets, so a whole-history chart reads about 200 rows per
-- machine however long the history is.
--
-- Blocks: a version starts a block at level L (L = 0 … 19) when the md5 of its sort key ends in more than L zero
-- bits: a block holds 2^(L+1) versions on average, each level-L boundary is one of level L-1 too (the levels nest),
-- and a boundary depends on its own version only. So a version imported into the middle of the history splits at
-- most the one block it falls in, at each level, and leaves every other block as it was (content-defined chunking,
-- as backup tools cut files). The chart takes the finest level with at most 200 blocks in its range.
CREATE FUNCTION chart_block_levels(sort_key text) RETURNS integer IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE sql AS $$
  SELECT least(20, 32 - length(rtrim((('x' || substr(md5(sort_key), 1, 8))::bit(32))::text, '0')))
$$;

-- One row per level a version starts a block at: about one row per version in all.
CREATE TABLE chart_boundary (
    product_id bigint NOT NULL,
    level      smallint NOT NULL,
    sort_key   text COLLATE "C" NOT NULL,
    PRIMARY KEY (product_id, level, sort_key)
);

INSERT INTO chart_boundary (product_id, level, sort_key)
SELECT v.product_id, l.level, v.sort_key
FROM version v CROSS JOIN LATERAL generate_series(0, chart_block_levels(v.sort_key) - 1) AS l(level)
ON CONFLICT DO NOTHING;

-- Every path that makes versions (an upload's short statement, an import's batch, SQL by hand) adds boundaries.
-- Versions are never deleted or renamed.
CREATE FUNCTION chart_boundary_of_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO chart_boundary (product_id, level, sort_key)
  SELECT v.product_id, l.level, v.sort_key
  FROM new_versions v CROSS JOIN LATERAL generate_series(0, chart_block_levels(v.sort_key) - 1) AS l(level)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER version_bounds_chart_blocks AFTER INSERT ON version
  REFERENCING NEW TABLE AS new_versions FOR EACH STATEMENT EXECUTE FUNCTION chart_boundary_of_versions();

-- One series' summary of one complete block [first_key, next_key): how many points it has there, the median,
-- lowest and highest of their levels, the sort keys of its first and last point there. Written by the chart when it first needs
-- the block (under a shared lock on the series, see ChartPoints); a row is used only while next_key is still the
-- next boundary after first_key, so a boundary inserted into its block makes it unused without touching it.
CREATE TABLE chart_summary (
    series_id     bigint NOT NULL,
    level         smallint NOT NULL,
    first_key     text COLLATE "C" NOT NULL,
    next_key      text COLLATE "C" NOT NULL,
    n             integer NOT NULL,
    median        double precision,
    lo            double precision,
    hi            double precision,
    first_point   text COLLATE "C",
    last_point    text COLLATE "C",
    PRIMARY KEY (series_id, level, first_key)
);
CREATE INDEX chart_summary_next_idx ON chart_summary (series_id, next_key);

-- Written points (upload, import, re-read) drop the summaries of the blocks from each series' lowest written key to
-- its highest: exactly the block of an upload's one point per series; an import's whole span per series (summarised
-- again when a chart next needs it). One index probe per written series by (series, next_key > its lowest key),
-- which finds nothing when the points are at the newest version (the open last block is never kept).
-- Statement-level, with the written rows as a table. The statement has no parameters, so PL/pgSQL plans it once per
-- connection, from the table's size then: planned while chart_summary was empty it could scan it whole on every
-- later upload. The function's settings leave the planner only the per-series index probe.
CREATE FUNCTION chart_summary_forget() RETURNS trigger LANGUAGE plpgsql
SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  DELETE FROM chart_summary c
  WHERE c.ctid = ANY (ARRAY(
    SELECT s.ctid
    FROM (SELECT w.series_id, min(w.sort_key) AS lo, max(w.sort_key) AS hi
          FROM written_points w GROUP BY w.series_id) AS p
    CROSS JOIN LATERAL (SELECT s.ctid FROM chart_summary s
                        WHERE s.series_id = p.series_id AND s.next_key > p.lo AND s.first_key <= p.hi) AS s));
  RETURN NULL;
END $$;

CREATE TRIGGER point_forgets_chart_summary_on_insert AFTER INSERT ON detection_point
  REFERENCING NEW TABLE AS written_points FOR EACH STATEMENT EXECUTE FUNCTION chart_summary_forget();
CREATE TRIGGER point_forgets_chart_summary_on_update AFTER UPDATE ON detection_point
  REFERENCING NEW TABLE AS written_points FOR EACH STATEMENT EXECUTE FUNCTION chart_summary_forget();
