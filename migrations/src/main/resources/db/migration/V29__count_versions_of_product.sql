-- The home page shows how many versions each product has. Counting them read every version of the product
-- (a scan that grows with history); the count is now kept with the product, by a trigger on version, so
-- every path that makes versions (an upload's own short statement, an import's batch of new versions, a
-- database written by hand) keeps it right. Statement-level with a transition table: an import that makes
-- 200 versions in one statement updates its product once. Versions are never deleted; a delete is counted
-- all the same.
ALTER TABLE product ADD COLUMN version_count bigint NOT NULL DEFAULT 0;

UPDATE product p SET version_count = (SELECT count(*) FROM version v WHERE v.product_id = p.id);

CREATE FUNCTION product_version_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE product p SET version_count = p.version_count + n.c
      FROM (SELECT product_id, count(*) AS c FROM changed_versions GROUP BY product_id) n
     WHERE p.id = n.product_id;
  ELSE
    UPDATE product p SET version_count = p.version_count - n.c
      FROM (SELECT product_id, count(*) AS c FROM changed_versions GROUP BY product_id) n
     WHERE p.id = n.product_id;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER version_counted_on_insert AFTER INSERT ON version
  REFERENCING NEW TABLE AS changed_versions FOR EACH STATEMENT EXECUTE FUNCTION product_version_count();
CREATE TRIGGER version_counted_on_delete AFTER DELETE ON version
  REFERENCING OLD TABLE AS changed_versions FOR EACH STATEMENT EXECUTE FUNCTION product_version_count();
