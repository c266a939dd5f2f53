-- A product's count of versions (product.version_count, kept by a trigger on version, V29) includes its deleted
-- versions until they are purged. The counts shown (home, the product page, discovery, the delete confirmation) are
-- live_version_count(product): that count less the product's deleted versions, found by a partial index (few rows:
-- versions deleted and not yet purged), so no read grows with history.
CREATE INDEX version_deleted_idx ON version (product_id) WHERE deletion_id IS NOT NULL;

CREATE FUNCTION live_version_count(product bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT p.version_count - (SELECT count(*) FROM version v WHERE v.product_id = p.id AND v.deletion_id IS NOT NULL)
  FROM product p WHERE p.id = $1
$$;
