/**
 * {@link org.perftrack.server.background.BackgroundThread}: one daemon thread of a server's own work (the lab's
 * clock, curation's purge, chart summaries), started and stopped with the application.
 */
package org.perftrack.server.background;
