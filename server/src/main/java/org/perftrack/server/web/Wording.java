package org.perftrack.server.web;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * How summaries and mails word numbers: a ratio as a reader says it ({@code ×3000}, {@code ×4.7},
 * {@code ×1.23}, never {@code ×3000.00}) and a count with its noun ({@code 1 benchmark}, {@code 3 benchmarks}).
 */
public final class Wording {

  private Wording() {}

  /**
   * Two decimals below 10, one below 100, none above, trailing zeros dropped: 2.6667 → "×2.67",
   * 4.70 → "×4.7", 44.93 → "×44.9", 3000.4 → "×3000", 0.2 → "×0.2"; NaN → "—".
   */
  public static String ratio(double r) {
    if (Double.isNaN(r)) {
      return "—";
    }
    if (Double.isInfinite(r)) {
      return "×∞";
    }
    double a = Math.abs(r);
    int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    BigDecimal d = BigDecimal.valueOf(r).setScale(decimals, RoundingMode.HALF_UP).stripTrailingZeros();
    return "×" + (d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString());
  }

  /** "1 regression", "3 regressions"; "box" → "boxes". */
  public static String count(long n, String singular) {
    return n + " " + noun(n, singular);
  }

  /** The noun alone, for "on 1 of 3 machines": {@code noun(3, "machine")} → "machines". */
  public static String noun(long n, String singular) {
    if (n == 1) {
      return singular;
    }
    return singular.endsWith("s") || singular.endsWith("x") ? singular + "es" : singular + "s";
  }
}
