package org.perftrack.server.detection;

import java.util.Objects;

/**
 * One version of a series: the raw samples of its runs, or only their {@link Summary} when read
 * back from the database.
 */
public record Point(String version, double[] samples, Summary summary) {
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
    return new Point(version, samples, null);
  }

  public static Point summarized(String version, Summary summary) {
    return new Point(version, new double[0], Objects.requireNonNull(summary, "summary"));
  }
}
