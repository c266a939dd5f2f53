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

  /**
   * An overhead (layer / baseline) as a person says it: above 1 as {@link #ratio}, below 1 as how many times less
   * ({@code 0.08} → "12.5× less", {@code 0.5} → "2× less"), since "×0.08" of a bandwidth reads as nothing at all.
   */
  public static String overhead(double r) {
    if (r > 0 && r < 1) {
      return ratio(1 / r).substring(1) + "× less";
    }
    return ratio(r);
  }

  /** A unit as written after a number: nothing for a pure number (unit "1", as OpenTelemetry writes it). */
  public static String unit(String unit) {
    return unit == null || unit.isBlank() || "1".equals(unit.strip()) ? "" : unit;
  }

  /** "48.1 us", and "0.001983" for a pure number rather than "0.001983 1". */
  public static String quantity(String number, String unit) {
    String u = unit(unit);
    return u.isEmpty() ? number : number + " " + u;
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
