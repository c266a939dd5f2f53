package org.perftrack.server.detection;

/**
 * Knobs of the detector; the server's defaults are {@link DetectionProperties} ({@code perftrack.detection.*}). {@code minChange} is the smallest relative change worth an alert (the
 * noise-based part, {@code noiseMultiple} times the between-session noise, is added on top by
 * taking the larger); {@code window} is how many versions each side of a candidate are looked at;
 * {@code falseDiscoveryRate} is the Benjamini-Hochberg level across all metrics of one run.
 */
public record DetectionSettings(double minChange, double noiseMultiple, int window,
                double falseDiscoveryRate, boolean ignored) {

  /** The defaults of an unconfigured server, for tests and evaluations that run the detector without Spring. */
  public static final DetectionSettings DEFAULTS = new DetectionSettings(
      Double.parseDouble(DetectionProperties.MIN_CHANGE), Double.parseDouble(DetectionProperties.NOISE_MULTIPLE),
      Integer.parseInt(DetectionProperties.WINDOW), Double.parseDouble(DetectionProperties.FALSE_DISCOVERY_RATE), false);

  public DetectionSettings {
    if (minChange < 0 || minChange >= 10) {
      throw new IllegalArgumentException("minChange must be in [0, 10), got " + minChange);
    }
    if (window < 2) {
      throw new IllegalArgumentException("window must be at least 2, got " + window);
    }
    if (falseDiscoveryRate <= 0 || falseDiscoveryRate >= 1) {
      throw new IllegalArgumentException("falseDiscoveryRate must be in (0, 1), got " + falseDiscoveryRate);
    }
  }

  public DetectionSettings withMinChange(double value) {
    return new DetectionSettings(value, noiseMultiple, window, falseDiscoveryRate, ignored);
  }

  public DetectionSettings withIgnored(boolean value) {
    return new DetectionSettings(minChange, noiseMultiple, window, falseDiscoveryRate, value);
  }
}
