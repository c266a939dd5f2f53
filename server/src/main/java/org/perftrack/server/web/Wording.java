package org.perftrack.server.web;

import org.perftrack.wire.Quantities;

/**
 * How summaries and mails word numbers: a ratio as a reader says it ({@code ×3000}, {@code ×4.7},
 * {@code ×1.23}, never {@code ×3000.00}; {@code 12.5× less} below 1) and a count with its noun
 * ({@code 1 benchmark}, {@code 3 benchmarks}). The number rules are {@link Quantities}', shared with the agent.
 */
public final class Wording {

  private Wording() {}

  /**
   * A ratio (value over baseline) as {@link Quantities#ratio}: 2.6667 → "×2.67", 4.70 → "×4.7", 44.93 → "×44.9",
   * 3000.4 → "×3000", and below 1 how many times less: 0.08 → "12.5× less", 0.5 → "2× less"; NaN → "—"; from a baseline of 0 "from 0", down to 0 "to 0".
   */
  public static String ratio(double r) {
    if (Double.isNaN(r)) {
      return "—";
    }
    if (Double.isInfinite(r) && r > 0) {
      return "from 0"; // the baseline was 0: no factor says how much more
    }
    if (r == 0) {
      return "to 0";
    }
    return Quantities.ratio(r);
  }

  /** A unit as written after a number: nothing for a pure number (unit "1", as OpenTelemetry writes it). */
  public static String unit(String unit) {
    return Quantities.unit(unit);
  }

  /** "48.1 us", and "0.001983" for a pure number rather than "0.001983 1". */
  public static String quantity(String number, String unit) {
    String u = unit(unit);
    return u.isEmpty() ? number : number + " " + u;
  }

  /** "1 regression", "3 regressions", "20,000 versions"; "box" → "boxes", "branch" → "branches". */
  public static String count(long n, String singular) {
    return Quantities.count(n) + " " + noun(n, singular);
  }

  /** The noun alone, for "on 1 of 3 machines": {@code noun(3, "machine")} → "machines". */
  public static String noun(long n, String singular) {
    if (n == 1) {
      return singular;
    }
    return singular.endsWith("s") || singular.endsWith("x") || singular.endsWith("ch") || singular.endsWith("sh")
        ? singular + "es" : singular + "s";
  }
}
