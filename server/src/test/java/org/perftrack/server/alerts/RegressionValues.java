package org.perftrack.server.alerts;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;

/**
 * Regressions as detection publishes them, built by hand so that the alert tests need no detector.
 * They carry hints as detection stores them; their ids are unknown to the regression table, so a
 * digest shows them as they were announced.
 */
final class RegressionValues {

  /** Far above any id the detector's sequence will reach in a test database shared with its tests. */
  private static final AtomicLong IDS = new AtomicLong(9_000_000_000L + (System.nanoTime() % 1_000_000) * 1000);

  private RegressionValues() {}

  static Regression slower(String product, String machine, String benchmark, String base, String head,
      double baseValue, double value, Regression.Hint... hints) {
    Instant now = Instant.now();
    return new Regression(IDS.incrementAndGet(), product, machine, benchmark, "time-per-op", "us",
        Direction.LOWER_IS_BETTER, Regression.Kind.REGRESSION, base, head, baseValue, value, value / baseValue,
        0.0004, Regression.Status.OPEN, now, now, null, null, null, List.of(hints), List.of(), null, null, true);
  }

  /** The same regression reported as starting at one of {@code first..last} (its version the likeliest). */
  static Regression between(Regression r, String first, String last) {
    return new Regression(r.id(), r.product(), r.machine(), r.benchmark(), r.metric(), r.unit(), r.direction(),
        r.kind(), r.baselineVersion(), r.version(), r.baselineValue(), r.value(), r.ratio(), r.pValue(), r.status(),
        r.detectedAt(), r.updatedAt(), r.note(), r.triagedBy(), r.withdrawnReason(), r.hints(), r.history(),
        r.summaryId(), r.bisection(), r.confirmed(), first, last);
  }

  /** Seed 003: 64-byte write() 18 → 48 µs between 1.5.19-4 and 1.5.24-2, context switches ×400 (seed 000). */
  static Regression write64b(String product, String machine) {
    return slower(product, machine, "write-64b", "1.5.19-4", "1.5.24-2", 18.0, 48.0,
        new Regression.Hint("ctx-switches-per-op", "count", 0.004, 1.6, 400.0));
  }
}
