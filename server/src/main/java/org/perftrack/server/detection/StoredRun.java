package org.perftrack.server.detection;

import java.util.List;
import java.util.UUID;

/**
 * A run that the ingest transaction has just stored: what detection needs to find the series it touched.
 * {@code values}, when given, holds each result's values in its series' unit, in {@code seriesIds} order, so
 * that detection summarises the new version from the request instead of reading the samples back; null means
 * read them back (an import, a benchmark).
 */
public record StoredRun(UUID runId, long productId, long versionId, UUID batch, List<Long> seriesIds,
    List<Values> values) {

  public StoredRun(UUID runId, long productId, long versionId, UUID batch, List<Long> seriesIds) {
    this(runId, productId, versionId, batch, seriesIds, null);
  }

  /**
   * One result as stored: its raw samples, or (when {@code samples} is empty) the statistics a tool wrote
   * ({@code median} and {@code stddev} may be null).
   */
  public record Values(double[] samples, int n, double mean, Double median, Double stddev) {}
}
