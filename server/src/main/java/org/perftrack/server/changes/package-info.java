/**
 * Links to what changed in a product's versions ({@link org.perftrack.server.changes.ChangeLinks}): a product's URL
 * templates for a version and for a range, filled in for a regression's version and the range its step is between.
 * Pages and mails read it; the templates (the product's {@code version_changes_url} and {@code range_changes_url},
 * which it writes) are set through the products API ({@code products.ChangeLinksApi}). It depends on no feature
 * package but detection's {@code Regression}, so alerts and pages may both use it.
 */
package org.perftrack.server.changes;
