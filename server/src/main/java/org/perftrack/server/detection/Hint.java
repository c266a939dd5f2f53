package org.perftrack.server.detection;

/**
 * Another metric of the same benchmark across the same version pair: the first hint at why
 * (seed 000: context switches per call ×400 while time doubled). {@code ratio} is null when the
 * baseline was zero.
 */
public record Hint(String metric, String unit, double baselineValue, double value, Double ratio) {

  static Hint of(SeriesWindow other, String baselineVersion, String version) {
    double before = other.level(baselineVersion);
    double after = other.level(version);
    if (Double.isNaN(before) || Double.isNaN(after)) {
      return null;
    }
    return new Hint(other.metric(), other.unit(), before, after, before == 0 ? null : after / before);
  }
}
