package org.perftrack.server.detection;

import java.util.Set;

/**
 * An application event: a transaction wrote detection points of these series (an upload, an import, a re-judging).
 * Published inside the writing transaction; a listener that reads what was written listens after its commit
 * ({@code @TransactionalEventListener}).
 */
public record PointsWritten(Set<Long> seriesIds) {}
