package org.perftrack.server.detection;

import java.util.Objects;

/**
 * One version of a series: the raw samples of its runs, or only their {@link Summary} when read
 * back from the database. {@code batch} is set when the run was measured interleaved with runs of
 * other versions; {@code runId} identifies the upload.
 */
public record Point(String version, double[] samples, String batch, String runId, Summary summary) {
  public Point {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(samples, "samples");
    if (summary == null) {
      if (samples.length == 0) {
        throw new IllegalArgumentException("samples of version " + version + " must not be empty");
      }
      summary = Summary.of(samples);
    }
  }

  public static Point of(String version, double... samples) {
    return new Point(version, samples, null, null, null);
  }

  public static Point summarized(String version, Summary summary) {
    return new Point(version, new double[0], null, null, Objects.requireNonNull(summary, "summary"));
  }
}
