package org.perftrack.server.regressions;

import java.time.Instant;
import java.util.List;

/**
 * A regression as the pages show it: detection's record plus how bad it is in the direction that
 * matters ({@code severity} ≥ 1 means worse: the ratio, inverted for higher-is-better metrics).
 */
public record Listed(long id, String product, String machine, String benchmark, String metric, String unit,
    String direction, String baselineVersion, String version, double baselineValue, double value, double ratio,
    double pValue, String status, Instant detectedAt, String note, String triagedBy, List<Hint> hints,
    double severity) {

  /** Another metric of the same benchmark across the same two versions (context switches…). */
  public record Hint(String metric, String unit, double baselineValue, double value, Double ratio) {}

  public static double severityOf(double ratio, String direction) {
    return "higher_is_better".equals(direction) ? (ratio == 0 ? Double.POSITIVE_INFINITY : 1 / ratio) : ratio;
  }
}
