-- A machine's deletion marks the machine only: its runs, and the versions only it measured, stay until the purge.
-- The pages leave such versions out as the API's lists leave the machine out: version_of_deleted_machines(v) is true
-- when every run of a version is on a deleted machine (two probes of run (version_id, machine_id) per version), and
-- live_version_count(product) leaves those versions out of its count too.
CREATE FUNCTION version_of_deleted_machines(version bigint) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM run r JOIN machine m ON m.id = r.machine_id
                 WHERE r.version_id = $1 AND m.deletion_id IS NOT NULL)
     AND NOT EXISTS (SELECT 1 FROM run r JOIN machine m ON m.id = r.machine_id
                     WHERE r.version_id = $1 AND m.deletion_id IS NULL)
$$;

CREATE OR REPLACE FUNCTION live_version_count(product bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT p.version_count - (SELECT count(*) FROM version v WHERE v.product_id = p.id AND v.deletion_id IS NOT NULL)
         - (SELECT count(DISTINCT v.id) FROM machine m JOIN run r ON r.machine_id = m.id
              JOIN version v ON v.id = r.version_id
            WHERE m.deletion_id IS NOT NULL AND v.product_id = p.id AND v.deletion_id IS NULL
              AND version_of_deleted_machines(v.id))
  FROM product p WHERE p.id = $1
$$;
