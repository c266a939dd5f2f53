-- The import whose batch marked a pair due (NULL: marked otherwise, or before this column): another import ending
-- meanwhile leaves the pairs of an import still running in this server to that import, which judges them at its
-- end, instead of judging them too (and waiting for that import's series locks to do so).
ALTER TABLE judging_due ADD COLUMN import_id uuid;
