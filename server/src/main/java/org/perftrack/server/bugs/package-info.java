/**
 * Bugs filed about a regression or a summary, in any tracker ({@link org.perftrack.server.bugs.Bugs}, table
 * {@code bug_link}): their addresses, set by API or on the pages, shown on the pages, the lists and in mails; and a
 * product's "File a bug" URL template, filled with a summary's title and a body naming its versions, members and
 * links. It depends on detection's {@code Regression}, changes and the alerts' site address; summaries only to know that a summary exists.
 */
package org.perftrack.server.bugs;
