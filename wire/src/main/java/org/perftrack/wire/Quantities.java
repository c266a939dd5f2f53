package org.perftrack.wire;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers as people read them, the same on the pages, in mails and on the agent's console:
 * <ul>
 *   <li>a value has four significant digits ({@code 48.02}, {@code 0.001983}); from 10,000 on its digits are
 *       grouped by thousands with commas ({@code 75,000}, {@code 456,600,000}), the way people write large numbers
 *       whatever the unit; an exponent only far from everyday magnitudes ({@code 4.812e-05}, {@code 1.000e+15});
 *   <li>bytes take their SI prefix, as the suite's {@code MB/s} means 10<sup>6</sup> bytes a second:
 *       {@code 3180000000 B/s} is {@code 3.18 GB/s}, {@code 3180 MB/s} too;
 *   <li>a column (or row) of bare numbers under its unit named once is {@linkplain #scale scaled} as a whole: bytes
 *       take the one prefix that suits its largest number, {@code 3180000000} and {@code 1092000000} under
 *       {@code B/s} read {@code 3.18} and {@code 1.092} under {@code GB/s};
 *   <li>a time below one of its unit takes the smaller unit its largest number needs, down to nanoseconds:
 *       {@code 3.816e-06 s} is {@code 3.816 µs}, {@code 0.25 ms} is {@code 250 µs}; a time of one unit or more
 *       keeps its unit ({@code 75,000 ns});
 *   <li>a pure number (unit {@code 1}, as OpenTelemetry writes it, or none) has no unit: {@code 0.001983};
 *   <li>a ratio (value over baseline) at or above 1 is a factor, {@code ×2.67}; below 1 it says how many times
 *       less, {@code 12.5× less} for 0.08, since "×0.08" of a bandwidth reads as nothing at all. Two decimals
 *       below 10, one below 100, none above, trailing zeros dropped;
 *   <li>a p-value is a confidence: {@code p < 0.001}, {@code p = 0.012}.
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

  /**
   * Four significant digits: "48.02", "0.001983", "2300", "75,000", "456,600,000"; an exponent below 10<sup>-4</sup>
   * and from 10<sup>15</sup> on ("4.812e-05"); "?" for NaN or an infinity.
   */
  public static String number(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "?";
    }
    if (value == 0) {
      return "0";
    }
    if (Math.abs(value) >= 1e15 || Math.abs(value) < 1e-4) {
      return String.format(Locale.ROOT, "%.3e", value);
    }
    BigDecimal d = new BigDecimal(value).round(new MathContext(4, RoundingMode.HALF_UP)).stripTrailingZeros();
    String plain = d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    return d.abs().compareTo(GROUPED) >= 0 ? grouped(plain) : plain;
  }

  /**
   * A count, every digit kept and grouped by thousands from 10,000 as {@link #number} groups them: "1024", "24,105",
   * "20,000".
   */
  public static String count(long n) {
    String plain = Long.toString(n);
    return Math.abs(n) >= 10_000 ? grouped(plain) : plain;
  }

  /** From here on a number's digits are grouped by thousands. */
  private static final BigDecimal GROUPED = BigDecimal.valueOf(10_000);

  /** A whole number's digits grouped by thousands with commas: "-456600000" is "-456,600,000". */
  private static String grouped(String digits) {
    int first = digits.startsWith("-") ? 1 : 0;
    StringBuilder out = new StringBuilder(digits);
    for (int at = digits.length() - 3; at > first; at -= 3) {
      out.insert(at, ',');
    }
    return out.toString();
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
    Scale scale = scale(u, value);
    return scale.number(value) + " " + scale.unit();
  }

  /**
   * The unit in which numbers shown together (a table's column or row, "18 → 48") are written, the unit named once
   * beside them: bytes take the prefix that suits the largest finite one of {@code values} ({@code 3.18e9} and
   * {@code 1.092e9} B/s are {@code 3.18} and {@code 1.092} GB/s), so that all read in one unit without an exponent;
   * any other unit, or bytes without a finite number, stays as given.
   */
  public static Scale scale(String unit, double... values) {
    String u = unit == null ? "" : unit.trim();
    double largest = -1;
    for (double v : values) {
      if (!Double.isNaN(v) && !Double.isInfinite(v)) {
        largest = Math.max(largest, Math.abs(v));
      }
    }
    Matcher bytes = BYTES.matcher(u);
    if (!bytes.matches()) {
      return TIME.contains(u) && largest > 0 ? time(u, largest) : new Scale(u, 1);
    }
    if (largest < 0) {
      return new Scale(u, 1);
    }
    double given = Math.pow(1000, prefixPower(bytes.group(1)));
    int power = 0;
    for (double v = largest * given; v >= 999.95 && power < PREFIXES.length - 1; v /= 1000) {
      power++;
    }
    return new Scale(PREFIXES[power] + (bytes.group(3) == null ? "B" : "B/s"), Math.pow(1000, power) / given);
  }

  /**
   * A time unit whose largest number is below one (it would read "0.0004812" or "4.812e-05") steps down to the unit
   * that writes it from 1 on, nanoseconds at the lowest: 3.816e-06 s is 3.816 µs. A time of one or more is as given.
   */
  private static Scale time(String unit, double largest) {
    int given = TIME.indexOf(unit);
    int at = given == TIME.indexOf("us") || given == TIME.indexOf("\u03bcs") ? TIME.indexOf("\u00b5s") : given;
    double per = 1;
    while (largest / per < 0.99995 && at > 0) {
      at--;
      per /= 1000;
    }
    return per == 1 ? new Scale(unit, 1) : new Scale(TIME.get(at), per);
  }

  /** Time units from the smallest, each a thousand of the one before; µs also spelled "us" and with a Greek mu. */
  private static final List<String> TIME = Arrays.asList("ns", "\u00b5s", "ms", "s", "us", "\u03bcs");

  /**
   * Text for a console, which may not show UTF-8 (a Windows console shows other characters): the micro sign as
   * {@code u}, "3.816 µs" is "3.816 us". The multiplication sign has its own: {@link #ratio(double, String)}.
   */
  public static String ascii(String text) {
    return text.replace('\u00b5', 'u').replace('\u03bc', 'u');
  }

  /** A unit chosen by {@link #scale} for numbers shown together, and their numbers in it. */
  public static final class Scale {

    private final String unit;
    private final double per;

    private Scale(String unit, double per) {
      this.unit = unit;
      this.per = per;
    }

    /** The unit as named once beside the numbers: "GB/s"; "1" or "" for a pure number, as given. */
    public String unit() {
      return unit;
    }

    /** One of this unit in the given one: 1e9 for GB/s of B/s, 1 for a unit as given. */
    public double per() {
      return per;
    }

    /** A value in this unit: 3.18e9 B/s is 3.18 in GB/s. */
    public double value(double value) {
      return value / per;
    }

    /** A value's number in this unit as {@link #number(double)} writes it: "3.18" for 3.18e9 B/s in GB/s. */
    public String number(double value) {
      return Quantities.number(value(value));
    }
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

  /** A p-value as a confidence a reader can weigh: "p < 0.001", "p = 0.012"; "p = ?" when not a number. */
  public static String p(double p) {
    String value = pValue(p);
    return value.startsWith("<") ? "p " + value : "p = " + value;
  }

  /**
   * A p-value where its column or label already says p-value (a table's cell): "< 0.001", "0.012"; "?" when not a
   * number. {@link #p} writes the same with its "p".
   */
  public static String pValue(double p) {
    if (Double.isNaN(p)) {
      return "?";
    }
    return p < 0.001 ? "< 0.001" : String.format(Locale.ROOT, "%.3f", p);
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
