-- A leading "v" or "V" before a digit (git tags: v1.0.10) is not a word in version order (VersionKey): v1.0.4 sorts
-- right after 1.0.4 and among the product's plain numbers. The sort key of such a name is the key it had without
-- the word "v" token ('3v!') it began with. Every stored copy of a version's key follows: the version, its detection
-- points, its chart block boundaries (their levels come from the key's md5), and the announced alerts' version ranges.
-- Chart summaries of the products concerned are dropped; the server summarises them again (ChartSummaryKeeper).
CREATE TEMPORARY TABLE rekeyed ON COMMIT DROP AS
SELECT id, product_id, sort_key AS old_key, substr(sort_key, 4) AS new_key
FROM version WHERE name ~ '^[vV][0-9]' AND left(sort_key, 3) = '3v!';

UPDATE version v SET sort_key = r.new_key FROM rekeyed r WHERE v.id = r.id;

UPDATE detection_point d SET sort_key = r.new_key FROM rekeyed r WHERE d.version_id = r.id;

DELETE FROM chart_boundary b USING rekeyed r WHERE b.product_id = r.product_id AND b.sort_key = r.old_key;
INSERT INTO chart_boundary (product_id, level, sort_key)
SELECT r.product_id, l.level, r.new_key
FROM rekeyed r CROSS JOIN LATERAL generate_series(0, chart_block_levels(r.new_key) - 1) AS l(level)
ON CONFLICT DO NOTHING;

DELETE FROM chart_summary c USING series s
WHERE s.id = c.series_id AND s.product_id IN (SELECT product_id FROM rekeyed);

-- A key's name follows its first '2 ' (the end marker; no token holds a space).
UPDATE alert_regression SET baseline_key = substr(baseline_key, 4)
WHERE left(baseline_key, 3) = '3v!' AND substr(baseline_key, position('2 ' IN baseline_key) + 2) ~ '^[vV][0-9]';
UPDATE alert_regression SET version_key = substr(version_key, 4)
WHERE left(version_key, 3) = '3v!' AND substr(version_key, position('2 ' IN version_key) + 2) ~ '^[vV][0-9]';
