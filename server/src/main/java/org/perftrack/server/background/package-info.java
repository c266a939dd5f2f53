/**
 * {@link org.perftrack.server.background.BackgroundThread}: one daemon thread of a server's own work (the lab's
 * clock, curation's purge, chart summaries, ingest's settling of sessions whose runs stopped arriving), started and
 * stopped with the application.
 */
package org.perftrack.server.background;
