package org.perftrack.server.detection;

import java.util.Objects;

/**
 * One version of a series: the raw samples of its runs, or only their {@link VersionLevel} when read
 * back from the database.
 */
public record Point(String version, double[] samples, VersionLevel summary) {
  public Point {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(samples, "samples");
    if (summary == null) {
      if (samples.length == 0) {
        throw new IllegalArgumentException("samples of version " + version + " must not be empty");
      }
      summary = VersionLevel.of(samples);
    }
  }

  public static Point of(String version, double... samples) {
    return new Point(version, samples, null);
  }

  public static Point summarized(String version, VersionLevel summary) {
    return new Point(version, new double[0], Objects.requireNonNull(summary, "summary"));
  }
}
