package org.perftrack.server.detection;

/**
 * One point of a series as read from {@code detection_point}; {@code before} when it lies before the changed
 * version.
 */
record PointRow(long series, boolean before, long versionId, VersionLevel summary) {}
