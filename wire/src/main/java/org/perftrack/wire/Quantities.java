package org.perftrack.wire;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers as people read them, the same on the pages, in mails and on the agent's console:
 * <ul>
 *   <li>a value has four significant digits ({@code 48.02}, {@code 0.001983}), an exponent only far from everyday
 *       magnitudes ({@code 1.235e+08});
 *   <li>bytes take their SI prefix, as the suite's {@code MB/s} means 10<sup>6</sup> bytes a second:
 *       {@code 3180000000 B/s} is {@code 3.18 GB/s}, {@code 3180 MB/s} too;
 *   <li>a pure number (unit {@code 1}, as OpenTelemetry writes it, or none) has no unit: {@code 0.001983};
 *   <li>a ratio (value over baseline) at or above 1 is a factor, {@code ×2.67}; below 1 it says how many times
 *       less, {@code 12.5× less} for 0.08, since "×0.08" of a bandwidth reads as nothing at all. Two decimals
 *       below 10, one below 100, none above, trailing zeros dropped.
 * </ul>
 * Java 8: the agent shares it. The agent's console writes the multiplication sign as {@code x} (a Windows console
 * shows UTF-8 as other characters): see {@link #ratio(double, String)}.
 */
public final class Quantities {

  /** The multiplication sign of pages and mails. */
  public static final String TIMES = "\u00d7";

  private static final Pattern BYTES = Pattern.compile("(k|K|M|G|T)?(B|bytes?)(/s)?");
  private static final String[] PREFIXES = {"", "k", "M", "G", "T", "P"};

  private Quantities() {}

  /** Four significant digits: "48.02", "0.001983", "1.235e+08"; "?" for NaN or an infinity. */
  public static String number(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "?";
    }
    if (value == 0) {
      return "0";
    }
    if (Math.abs(value) >= 1e7 || Math.abs(value) < 1e-4) {
      return String.format(Locale.ROOT, "%.3e", value);
    }
    BigDecimal d = new BigDecimal(value).round(new MathContext(4, RoundingMode.HALF_UP)).stripTrailingZeros();
    return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
  }

  /** A unit as written after a number: nothing for a pure number (unit "1" or none), else as given. */
  public static String unit(String unit) {
    return unit == null || unit.trim().isEmpty() || "1".equals(unit.trim()) ? "" : unit;
  }

  /** A value with its unit: "48.02 us", "3.18 GB/s" (bytes with their prefix), "0.001983" for a pure number. */
  public static String quantity(double value, String unit) {
    String u = unit(unit).trim();
    if (u.isEmpty()) {
      return number(value);
    }
    Matcher bytes = BYTES.matcher(u);
    if (bytes.matches() && !Double.isNaN(value) && !Double.isInfinite(value)) {
      return bytes(value * Math.pow(1000, prefixPower(bytes.group(1))), bytes.group(3) == null ? "B" : "B/s");
    }
    return number(value) + " " + u;
  }

  /** A ratio with the multiplication sign of pages and mails: "×2.67", "2.91× less"; "?" when not positive. */
  public static String ratio(double ratio) {
    return ratio(ratio, TIMES);
  }

  /**
   * A ratio (value over baseline): at or above 1 "×2.67", below 1 how many times less, "2.91× less".
   *
   * @param times the multiplication sign: {@link #TIMES}, or "x" on a console
   * @return "?" for a ratio that is not a positive number
   */
  public static String ratio(double ratio, String times) {
    if (Double.isNaN(ratio) || Double.isInfinite(ratio) || ratio <= 0) {
      return "?";
    }
    return ratio < 1 ? factor(1 / ratio) + times + " less" : times + factor(ratio);
  }

  /** A fraction as a percentage with one decimal: 0.235 → "23.5%". */
  public static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
  }

  /** A factor's digits as {@link #ratio} writes them: 2.6667 → "2.67", 44.93 → "44.9", 3000.4 → "3000". */
  public static String factor(double r) {
    int decimals = r >= 100 ? 0 : r >= 10 ? 1 : 2;
    BigDecimal d = BigDecimal.valueOf(r).setScale(decimals, RoundingMode.HALF_UP).stripTrailingZeros();
    return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
  }

  private static String bytes(double perBase, String base) {
    int power = 0;
    double v = perBase;
    while (Math.abs(v) >= 999.95 && power < PREFIXES.length - 1) {
      v /= 1000;
      power++;
    }
    return number(v) + " " + PREFIXES[power] + base;
  }

  private static int prefixPower(String prefix) {
    if (prefix == null) {
      return 0;
    }
    switch (prefix) {
      case "k":
      case "K":
        return 1;
      case "M":
        return 2;
      case "G":
        return 3;
      default:
        return 4;
    }
  }
}
