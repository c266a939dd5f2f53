/**
 * Branches: a pull request's builds, judged against the default branch's history up to their start point and
 * kept apart from it (tables {@code branch}, {@code branch_run}, {@code branch_result}), so that nothing the
 * default branch shows (regressions, summaries, mails, charts, compare defaults, version lists) sees them.
 */
package org.perftrack.server.branches;
