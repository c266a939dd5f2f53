/**
 * Links to what changed in a product's versions ({@link org.perftrack.server.changes.ChangeLinks}): a product's URL
 * templates for a version and for a range, filled in for a regression's version and the range its step is between,
 * a bisection's last good and first bad version, or two adjacent versions (compare, a run's report); never a wider
 * range. Pages, run reports and mails read it ({@code templates/changes/links.html}); the templates (the product's
 * {@code version_changes_url} and {@code range_changes_url}, which it writes, audited) are set on the product's
 * settings page ({@code products.ProductSettingsPages}) and through the products API ({@code products.ChangeLinksApi}).
 * It depends on no feature package but detection's {@code Regression} (and the audit log), so alerts, lab and pages
 * may all use it.
 */
package org.perftrack.server.changes;
