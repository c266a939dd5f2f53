package org.perftrack.agent.text;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers as people read them on the console: four significant digits, bytes with their prefix ({@code 3.18 GB/s},
 * not {@code 3180000000 B/s}), a pure number (unit {@code 1}) without a unit, and a ratio below 1 as how many
 * times less. ASCII only ({@code x}, not the multiplication sign): a Windows console shows the agent's UTF-8 as
 * other characters.
 */
public final class Numbers {

  private static final Pattern BYTES = Pattern.compile("(k|K|M|G|T)?(B|bytes?)(/s)?");
  private static final String[] PREFIXES = {"", "k", "M", "G", "T", "P"};

  private Numbers() {}

  /** A value with its unit: "48.02 us", "3.18 GB/s", "0.001983" for a pure number. */
  public static String quantity(double value, String unit) {
    String u = unit == null ? "" : unit.trim();
    if (u.isEmpty() || u.equals("1")) {
      return number(value);
    }
    Matcher bytes = BYTES.matcher(u);
    if (bytes.matches() && !Double.isNaN(value) && !Double.isInfinite(value)) {
      return bytes(value * Math.pow(1000, prefixPower(bytes.group(1))), bytes.group(3) == null ? "B" : "B/s");
    }
    return number(value) + " " + u;
  }

  /** Four significant digits, no exponent, no trailing zeros: enough to read a regression. */
  public static String number(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return "?";
    }
    if (value == 0) {
      return "0";
    }
    BigDecimal d = new BigDecimal(value).round(new MathContext(4, RoundingMode.HALF_UP)).stripTrailingZeros();
    return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
  }

  /** A change as a factor: "x2.67" (value over baseline), below 1 "2.94x less". */
  public static String ratio(double ratio) {
    if (Double.isNaN(ratio) || Double.isInfinite(ratio) || ratio <= 0) {
      return "x?";
    }
    return ratio < 1 ? factor(1 / ratio) + "x less" : "x" + factor(ratio);
  }

  /** A percentage with one decimal: "23.5%". */
  public static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
  }

  private static String factor(double r) {
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
