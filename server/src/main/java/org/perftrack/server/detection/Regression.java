package org.perftrack.server.detection;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A regression (or an improvement: {@link #kind}) as detection publishes it; pages, the REST API
 * and mail project this one record (docs/model.md). Ratio and p-value are of the current version pair.
 *
 * @param hints detection's stored hints: the other metrics of the benchmark across the same pair
 * @param history what happened to it over time (empty until the history is recorded)
 * @param summaryId the summary it belongs to, null when none
 * @param bisection the bisection asked for it, null when none
 * @param confirmed false while it is a step at the newest version that no later version has shown yet
 *     (reported by the upload that brought it; the next uploads confirm or withdraw it); never null
 * @param firstSuspect the first of the versions the step may start at (version order); equal to {@code version}
 *     when it is placed exactly; never null
 * @param lastSuspect the last of them; {@code version} is the likeliest; never null
 */
public record Regression(
    @JsonAlias("regressionId") long id, String product, String machine, String benchmark, String metric,
    String unit, Direction direction, Kind kind, String baselineVersion, String version,
    double baselineValue, double value, double ratio, double pValue, Status status,
    Instant detectedAt, Instant updatedAt, String note, String triagedBy, String withdrawnReason,
    List<Hint> hints, List<Event> history, Long summaryId, Bisection bisection, Boolean confirmed,
    String firstSuspect, String lastSuspect) {

  public Regression {
    firstSuspect = firstSuspect == null ? version : firstSuspect;
    lastSuspect = lastSuspect == null ? version : lastSuspect;
    hints = hints == null ? List.of() : List.copyOf(hints);
    confirmed = confirmed == null || confirmed; // stored before steps could be reported unconfirmed
    history = history == null ? List.of() : List.copyOf(history);
  }

  /** Whether the metric got worse (an alert) or better (recorded, no alert). */
  public enum Kind {
    REGRESSION, IMPROVEMENT;

    @JsonValue
    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Kind of(String wire) {
      return Wire.of(Kind.class, values(), wire, "kind");
    }
  }

  /** The life cycle: people set the triaged ones; the detector sets open and withdrawn. */
  public enum Status {
    OPEN, ACKNOWLEDGED, INVALID, FIXED, WONTFIX, WITHDRAWN;

    /** What a list shows unless asked for more: everything but withdrawn. */
    public static final List<Status> VISIBLE = List.of(OPEN, ACKNOWLEDGED, INVALID, FIXED, WONTFIX);

    /** What a person may set (withdrawn is the detector's). */
    public static final List<Status> TRIAGE = VISIBLE;

    @JsonValue
    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** @throws IllegalArgumentException naming the allowed spellings */
    public static Status of(String wire) {
      return Wire.of(Status.class, values(), wire, "status");
    }

    /** A person has judged it: the detector never changes its status again. */
    public boolean triaged() {
      return this != OPEN && this != WITHDRAWN;
    }
  }

  /**
   * Another metric of the same benchmark across the same version pair: the first hint at why (seed
   * 000: context switches per call ×400 while time doubled). {@code ratio} is null when the baseline was zero.
   */
  public record Hint(String metric, String unit, double baselineValue, double value, Double ratio) {

    static Hint of(SeriesWindow other, String baselineVersion, String version) {
      double before = other.level(baselineVersion);
      double after = other.level(version);
      if (Double.isNaN(before) || Double.isNaN(after)) {
        return null;
      }
      return new Hint(other.metric(), other.unit(), before, after, before == 0 ? null : after / before);
    }
  }

  /** One thing that happened to it: opened, confirmed, reattributed, withdrawn, reopened. */
  public record Event(Instant at, String action, String reason, String baselineVersion, String version,
      double ratio, double pValue) {}

  /** A bisection between the two versions; {@code status} pending|running|done|impossible. */
  public record Bisection(String status, String lastGood, String firstBad, int rounds) {}

  /** A regression placed exactly at {@code version}. */
  public Regression(long id, String product, String machine, String benchmark, String metric,
      String unit, Direction direction, Kind kind, String baselineVersion, String version,
      double baselineValue, double value, double ratio, double pValue, Status status,
      Instant detectedAt, Instant updatedAt, String note, String triagedBy, String withdrawnReason,
      List<Hint> hints, List<Event> history, Long summaryId, Bisection bisection, Boolean confirmed) {
    this(id, product, machine, benchmark, metric, unit, direction, kind, baselineVersion, version, baselineValue,
        value, ratio, pValue, status, detectedAt, updatedAt, note, triagedBy, withdrawnReason, hints, history,
        summaryId, bisection, confirmed, version, version);
  }

  /** Whether its place is a run of versions rather than one. */
  public boolean ranged() {
    return !firstSuspect.equals(lastSuspect);
  }

  /**
   * Where it starts, as pages, mail and the agent say it: the version, or "between 1.5.20-1 and 1.5.22-1 (most
   * likely 1.5.21-1)" when it may start at any of a run of versions.
   */
  public String place() {
    return place(version, firstSuspect, lastSuspect);
  }

  /** {@link #place()} of a step at {@code version} that may start at any of {@code first..last}. */
  public static String place(String version, String first, String last) {
    return placeParts(version, first, last).stream().map(PlacePart::text).collect(Collectors.joining());
  }

  /**
   * {@link #place(String, String, String)} in its parts, for pages that write each version whole: its words, and
   * each version it names on its own ({@code version} true).
   */
  public static List<PlacePart> placeParts(String version, String first, String last) {
    if (first == null || last == null || first.equals(last)) {
      return List.of(new PlacePart(version, true));
    }
    return List.of(new PlacePart("between ", false), new PlacePart(first, true), new PlacePart(" and ", false),
        new PlacePart(last, true), new PlacePart(" (most likely ", false), new PlacePart(version, true),
        new PlacePart(")", false));
  }

  /** A part of {@link #placeParts}: words, or one version ({@code version} true). */
  public record PlacePart(String text, boolean version) {}

  /** How many times worse, whichever way is better: 2.67 for 18 → 48 µs, 2.0 for 100 → 50 MB/s (≥ 1 means worse). */
  public double severity() {
    if (ratio <= 0) {
      return Double.POSITIVE_INFINITY;
    }
    return direction == Direction.HIGHER_IS_BETTER ? 1 / ratio : ratio;
  }

  /** {@code |ratio - 1|} in percent: what a subscription's minimum change compares with. */
  public double changePercent() {
    return Math.abs(ratio - 1) * 100;
  }

  /** The same regression with {@code hints} instead of its own (tests, previews). */
  public Regression withHints(List<Hint> newHints) {
    return new Regression(id, product, machine, benchmark, metric, unit, direction, kind, baselineVersion, version,
        baselineValue, value, ratio, pValue, status, detectedAt, updatedAt, note, triagedBy, withdrawnReason,
        newHints, history, summaryId, bisection, confirmed, firstSuspect, lastSuspect);
  }

  /** The one place that parses the enums' wire spellings. */
  static final class Wire {
    private Wire() {}

    static <E extends Enum<E>> E of(Class<E> type, E[] values, String wire, String field) {
      String name = wire == null ? "" : wire.trim().toUpperCase(Locale.ROOT).replace('-', '_');
      for (E e : values) {
        if (e.name().equals(name)) {
          return e;
        }
      }
      throw new IllegalArgumentException(field + " must be one of "
          + Arrays.stream(values).map(e -> e.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "))
          + ", got: " + wire);
    }
  }
}
