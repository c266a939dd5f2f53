-- Per product, where the changes of a version and of a range of versions are read (release notes, a diff, a
-- commit list): URL templates with {version}, or {from} and {to}. Null: no link.
ALTER TABLE product
    ADD COLUMN version_changes_url text CHECK (length(version_changes_url) <= 500),
    ADD COLUMN range_changes_url   text CHECK (length(range_changes_url) <= 500);
