-- Bugs filed about a regression or a summary, in any tracker: their addresses (http or https), who added each.
-- Exactly one of regression_id and summary_id is set; deleting the regression or the summary deletes its links.
CREATE TABLE bug_link (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    regression_id bigint REFERENCES regression (id) ON DELETE CASCADE,
    summary_id    bigint REFERENCES summary (id) ON DELETE CASCADE,
    url           text NOT NULL CHECK (length(url) <= 2000),
    added_by      text NOT NULL,
    added_at      timestamptz NOT NULL DEFAULT now(),
    CHECK ((regression_id IS NULL) <> (summary_id IS NULL))
);
CREATE UNIQUE INDEX bug_link_regression_idx ON bug_link (regression_id, url) WHERE regression_id IS NOT NULL;
CREATE UNIQUE INDEX bug_link_summary_idx ON bug_link (summary_id, url) WHERE summary_id IS NOT NULL;

-- Per product, where a new bug is filed: a URL template with {title} and {body} (GitHub's issues/new, GitLab's
-- issues/new, Bugzilla's enter_bug.cgi). Null: no "File a bug" link.
ALTER TABLE product ADD COLUMN new_bug_url text CHECK (length(new_bug_url) <= 500);
