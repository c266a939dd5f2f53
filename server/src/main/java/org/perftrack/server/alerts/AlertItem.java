package org.perftrack.server.alerts;

import java.util.List;
import org.perftrack.server.detection.RegressionView;

/**
 * One regression as a mail shows it, frozen when it was queued so that a retry next hour sends what
 * was true when it was found.
 *
 * @param changePercent {@code |ratio - 1|} in percent: what a subscription's minimum compares with
 * @param hints other metrics of the same benchmark that moved between the same two versions
 */
public record AlertItem(
    long regressionId,
    String product,
    String machine,
    String benchmark,
    String metric,
    String unit,
    String direction,
    String baselineVersion,
    String version,
    double baselineValue,
    double value,
    double ratio,
    double pValue,
    double changePercent,
    List<Hint> hints) {

  /** A secondary metric's move, the first hint at why (seed 000: context switches ×400). */
  public record Hint(String metric, String unit, double baselineValue, double value, double ratio) {}

  static AlertItem of(RegressionView r, List<Hint> hints) {
    return new AlertItem(r.id(), r.product(), r.machine(), r.benchmark(), r.metric(), r.unit(), r.direction(),
        r.baselineVersion(), r.version(), r.baselineValue(), r.value(), r.ratio(), r.pValue(),
        Math.abs(r.ratio() - 1) * 100, List.copyOf(hints));
  }

  /** How many times worse, whichever way is better: 2.67 for 18 → 48 µs, 2.0 for 100 → 50 MB/s. */
  double severity() {
    if (ratio <= 0) {
      return Double.MAX_VALUE;
    }
    return "higher_is_better".equals(direction) ? 1 / ratio : ratio;
  }
}
