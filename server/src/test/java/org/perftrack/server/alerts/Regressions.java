package org.perftrack.server.alerts;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.perftrack.server.detection.RegressionView;

/** Regressions as detection reports them, built by hand so that the alert tests need no detector. */
final class Regressions {

  /** Far above any id the detector's sequence will reach in a test database shared with its tests. */
  private static final AtomicLong IDS = new AtomicLong(9_000_000_000L + (System.nanoTime() % 1_000_000) * 1000);

  private Regressions() {}

  static RegressionView slower(String product, String machine, String benchmark, String base, String head,
      double baseValue, double value) {
    return new RegressionView(IDS.incrementAndGet(), product, machine, benchmark, "time-per-op", "us",
        "lower_is_better", base, head, baseValue, value, value / baseValue, 0.0004, "open", Instant.now());
  }

  /** Seed 003: 64-byte write() 18 → 48 µs between 1.5.19-4 and 1.5.24-2. */
  static RegressionView write64b(String product, String machine) {
    return slower(product, machine, "write-64b", "1.5.19-4", "1.5.24-2", 18.0, 48.0);
  }
}
