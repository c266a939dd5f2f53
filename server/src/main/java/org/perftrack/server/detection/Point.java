package org.perftrack.server.detection;

import java.util.Objects;

/**
 * One version of a series: the raw samples of one session (run). {@code batch} is set when the run
 * was measured interleaved with runs of other versions; {@code runId} identifies the upload.
 */
public record Point(String version, double[] samples, String batch, String runId) {
  public Point {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(samples, "samples");
    if (samples.length == 0) {
      throw new IllegalArgumentException("samples of version " + version + " must not be empty");
    }
  }

  public static Point of(String version, double... samples) {
    return new Point(version, samples, null, null);
  }
}
