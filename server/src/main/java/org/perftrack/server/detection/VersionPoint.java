package org.perftrack.server.detection;

import java.util.Objects;

/**
 * One version of a series: the raw samples of its runs, or only their {@link VersionLevel} when read
 * back from the database.
 */
public record VersionPoint(String version, double[] samples, VersionLevel summary) {
  public VersionPoint {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(samples, "samples");
    if (summary == null) {
      if (samples.length == 0) {
        throw new IllegalArgumentException("samples of version " + version + " must not be empty");
      }
      summary = VersionLevel.of(samples);
    }
  }

  public static VersionPoint of(String version, double... samples) {
    return new VersionPoint(version, samples, null);
  }

  public static VersionPoint summarized(String version, VersionLevel summary) {
    return new VersionPoint(version, new double[0], Objects.requireNonNull(summary, "summary"));
  }
}
