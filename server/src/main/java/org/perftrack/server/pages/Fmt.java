package org.perftrack.server.pages;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.web.Wording;
import org.perftrack.wire.Quantities;
import org.springframework.stereotype.Component;

/**
 * Number formatting for the pages ({@code ${@fmt.num(x)}} in templates): measurements span
 * nanoseconds to seconds, so a fixed number of decimals would be wrong at one end or the other;
 * four significant digits keep 48.12 µs and 0.0004812 s equally readable. The rules are {@link Quantities}',
 * shared with mails and the agent; here a missing value is "—". A value written with its unit ({@link #quantity})
 * takes the unit's prefix (3.18 GB/s); bare numbers under a unit named once (a table's column or row, "18 → 48")
 * are written in the unit {@link #scale} chooses for all of them together, and that unit is the one named.
 */
@Component("fmt")
public class Fmt {

  /**
   * Where a step starts in its parts ({@link Regression#placeParts}), for {@code fragments/place :: place}, which writes
   * each version whole: "between 1.5.20-1 and 1.5.22-1 (most likely 1.5.21-1)", or the version alone.
   */
  public List<Regression.PlacePart> place(String version, String first, String last) {
    return Regression.placeParts(version, first, last);
  }

  public String num(Double value) {
    if (value == null || value.isNaN()) {
      return "—";
    }
    if (value.isInfinite()) {
      return value > 0 ? "∞" : "-∞";
    }
    return Quantities.number(value);
  }

  /** A value with its unit: "48.12 us", "3.18 GB/s" (bytes with their prefix); a pure number (unit "1") without one. */
  public String quantity(Double value, String unit) {
    return value == null || value.isNaN() || value.isInfinite() ? Wording.quantity(num(value), unit)
        : Quantities.quantity(value, unit);
  }

  /**
   * The unit that numbers shown together are written in ({@link Quantities#scale}): {@code scale('B/s', 3.18e9,
   * 1.092e9)} names "GB/s" and writes its numbers "3.18" and "1.092"; missing values are left out of the choice.
   */
  public Scaled scale(String unit, Double... values) {
    return scaleAll(unit, values == null ? List.of() : Arrays.asList(values));
  }

  /** {@link #scale} of a column's values, a list of them (missing ones left out). */
  public Scaled scaleAll(String unit, Collection<? extends Number> values) {
    return new Scaled(Quantities.scale(unit, values.stream().filter(Objects::nonNull).mapToDouble(Number::doubleValue)
        .toArray()));
  }

  /** Numbers in the unit {@link #scale} chose: {@code unit()} to name once, {@code num(x)} for each as {@link #num}. */
  public record Scaled(Quantities.Scale scale) {

    public String unit() {
      return scale.unit();
    }

    /** The unit as said after a number: nothing for a pure number (unit "1"). */
    public String unitSaid() {
      return Quantities.unit(scale.unit());
    }

    public String num(Double value) {
      return value == null ? NUM.num(null) : NUM.num(scale.value(value));
    }

    /** Several numbers as "lo–hi". */
    public String range(Double lo, Double hi) {
      return num(lo) + "–" + num(hi);
    }
  }

  private static final Fmt NUM = new Fmt();

  /** Longer names are elided in pages; the whole name stays in the element's title and in links. */
  static final int NAME_SHOWN = 80;

  /**
   * A benchmark name short enough for a table cell: the start and the end with "…" between, since JMH and
   * hyperfine names differ at their end ({@code [size=10]}) as often as at their start.
   */
  public String name(String name) {
    if (name == null || name.length() <= NAME_SHOWN) {
      return name;
    }
    int head = NAME_SHOWN * 2 / 3;
    return name.substring(0, head) + "…" + name.substring(name.length() - (NAME_SHOWN - head - 1));
  }

  /**
   * A ratio as "×2.67", below 1 as "2.91× less" ({@link Wording#ratio}); one whose factor reads 1 as the change in per
   * cent, "-0.4%", never "1× less".
   */
  public String ratio(Double value) {
    return value == null ? "—" : readsAsOne(value) ? change(value) : Wording.ratio(value);
  }

  /** The lowest to the highest ratio, "×2.6 – ×2.8"; ends that read the same are said once ("from 0", "×1.00"). */
  public String ratioRange(Double lowest, Double highest) {
    String low = ratio(lowest);
    String high = ratio(highest);
    return low.equals(high) ? low : low + " – " + high;
  }

  /** A change as "+170.0%" / "-12.5%". */
  public String change(Double ratio) {
    if (ratio != null && ratio.isInfinite()) {
      return ""; // from 0: the ratio ("from 0") says it, no percentage does
    }
    return ratio == null || ratio.isNaN() ? "—" : String.format(Locale.ROOT, "%+.1f%%", (ratio - 1) * 100);
  }

  /** A p-value in a table's cell: three decimals, or "&lt; 0.001" ({@link Quantities#pValue}). */
  public String p(Double p) {
    return p == null || p.isNaN() ? "—" : Quantities.pValue(p);
  }

  private static final java.util.Set<String> TIME_UNITS = java.util.Set.of("s", "ms", "us", "µs", "ns", "sec", "seconds");

  /** How much worse (or better) as people say it: "2.70× slower", "12.0% faster"; direction-aware. */
  public String verdictChange(Double ratio, Direction direction, String unit) {
    if (ratio != null && (ratio.isInfinite() || ratio == 0)) {
      return Wording.ratio(ratio) + " (" + changeWord(ratio, direction, unit) + ")"; // "from 0 (worse)"
    }
    if (ratio == null || ratio.isNaN() || ratio <= 0) {
      return "—";
    }
    if (saidAsFactor(ratio)) {
      return Quantities.factor(ratio >= 1 ? ratio : 1 / ratio) + "× " + changeWord(ratio, direction, unit);
    }
    if (Math.abs(ratio - 1) < 0.0005) {
      return "no change"; // "0.0% faster" for two equal values
    }
    return String.format(Locale.ROOT, "%.1f%% %s", Math.abs(ratio - 1) * 100, changeWord(ratio, direction, unit));
  }

  /**
   * A ratio and what it means, the factor said once: "2.91× less (worse)" (a bandwidth), "×2.67 (slower)" (a time),
   * "×1.12 (12.0% slower)"; near 1 the change alone, "0.4% faster".
   */
  public String ratioAndVerdict(Double ratio, Direction direction, String unit) {
    if (ratio != null && (ratio.isInfinite() || ratio == 0)) {
      return verdictChange(ratio, direction, unit);
    }
    if (ratio == null || ratio.isNaN() || ratio <= 0) {
      return "—";
    }
    if (readsAsOne(ratio)) {
      return verdictChange(ratio, direction, unit); // "0.4% faster", not "1× less (0.4% faster)"
    }
    return ratio(ratio) + " (" + (saidAsFactor(ratio) ? changeWord(ratio, direction, unit)
        : verdictChange(ratio, direction, unit)) + ")";
  }

  /** A ratio other than 1 whose factor's digits read "1" (within 0.5 % of 1): said in per cent only. */
  private static boolean readsAsOne(double ratio) {
    return ratio != 1 && ratio > 0 && !Double.isInfinite(ratio) && !Double.isNaN(ratio)
        && Quantities.factor(ratio >= 1 ? ratio : 1 / ratio).equals("1");
  }

  /** A change of 1.5 times or more either way is said as a factor ("2.70× slower"), a smaller one in per cent. */
  private static boolean saidAsFactor(double ratio) {
    return ratio >= 1.5 || ratio <= 1 / 1.5;
  }

  /** "slower"/"faster" for a time, else "worse"/"better". */
  private static String changeWord(double ratio, Direction direction, String unit) {
    boolean higherIsBetter = direction == Direction.HIGHER_IS_BETTER;
    boolean worse = higherIsBetter ? ratio < 1 : ratio > 1;
    boolean time = !higherIsBetter && unit != null && TIME_UNITS.contains(unit);
    return time ? (worse ? "slower" : "faster") : (worse ? "worse" : "better");
  }

  /** A triage status as people write it. */
  public String status(Regression.Status status) {
    return status == Regression.Status.WONTFIX ? "won't fix" : status.wire();
  }

  /** The arrow that tells which way is better, for people and screen readers alike. */
  public String better(Direction direction) {
    return direction == Direction.HIGHER_IS_BETTER ? "higher is better" : "lower is better";
  }
}
