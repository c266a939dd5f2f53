package org.perftrack.server.detection;

import org.perftrack.server.stats.Robust;

/**
 * The tests a significant shift must also pass to count as a step. Each encodes a failure of the
 * field's tools: one slow session (not persistent), a slow drift seen through a window (the shift
 * disappears once a within-segment trend is removed), a newest version that merely looks like a
 * bad session seen before.
 */
final class StepChecks {
  private static final double SLOPE_Z = 3.0;
  static final double ADJUSTED_T = 3.0;
  /**
   * Where the sides show some trend (its slope {@value #SOME_SLOPE_Z} × its error or more, not yet clear),
   * what is left of the shift once the trend is removed must be {@value #SLOPED_ADJUSTED_T} × its error, not
   * {@value #ADJUSTED_T}: a slow drift seen through a window is the main source of false steps, and a
   * slope estimated from the same few versions is itself uncertain.
   */
  static final double SOME_SLOPE_Z = 1.2;
  static final double SLOPED_ADJUSTED_T = 5;
  /**
   * Where a clear trend runs through both sides, what is left of the shift once it is removed must be at
   * least this many times the minimum effect: the slope is estimated from the same few versions, and a
   * drift seen through a window leaves residuals of about one minimum effect often enough to be the main
   * source of false steps in drifting series.
   */
  static final double TREND_MIN_EFFECT = 2;
  /**
   * A level seen in one version only is taken at once only if it moved by at least 50 %: more than a
   * bad session (antivirus, caches, another process) plausibly does. Smaller ones wait for the next
   * version, which costs one version of delay and saves most alerts that would be withdrawn.
   */
  static final double SINGLE_VERSION_MIN_CHANGE = 0.5;
  private static final int PERSIST_LOOK = 4;

  private StepChecks() {
  }

  static boolean accepted(StepScan.Candidate c, double[] x, double sigma, double minEffect, double[] scratch) {
    boolean newest = newestAgainstNoise(c, x, minEffect);
    boolean tail = c.afterTo() == x.length && c.nAfter() <= TAIL && Math.abs(c.shift()) >= NEWEST_MIN_EFFECTS * minEffect;
    return Math.abs(c.shift()) >= minEffect
        && !oneVersionSegment(c, x.length)
        && persistent(c, x)
        && !(tail ? clearDrift(c, x, sigma, TREND_MIN_EFFECT * minEffect, scratch) : drift(c, x, sigma, minEffect, scratch))
        && (c.nAfter() > 1 || newest || unprecedented(c, x, 0, c.index(), minEffect))
        && (c.nBefore() > 1 || unprecedented(c, x, c.index(), x.length, minEffect));
  }

  /** A level seen in one version only, between two steps, is a bad session, not two steps. */
  static boolean oneVersionSegment(StepScan.Candidate c, int n) {
    return (c.nAfter() == 1 && c.afterTo() != n) || (c.nBefore() == 1 && c.beforeFrom() != 0);
  }

  /** Most of the first versions after the split sit on the new level, most of the last before on the old. */
  static boolean persistent(StepScan.Candidate c, double[] x) {
    double sign = Math.signum(c.shift());
    double half = Math.abs(c.shift()) / 2;
    double before = Robust.median(x, c.beforeFrom(), c.index());
    double after = before + c.shift();
    int lookAfter = Math.min(c.nAfter(), PERSIST_LOOK);
    int moved = 0;
    for (int i = c.index(); i < c.index() + lookAfter; i++) {
      moved += (x[i] - before) * sign > half ? 1 : 0;
    }
    int lookBefore = Math.min(c.nBefore(), PERSIST_LOOK);
    int stayed = 0;
    for (int i = c.index() - lookBefore; i < c.index(); i++) {
      stayed += (after - x[i]) * sign > half ? 1 : 0;
    }
    return moved >= lookAfter - (lookAfter >= PERSIST_LOOK ? 1 : 0)
        && stayed >= lookBefore - (lookBefore >= PERSIST_LOOK ? 1 : 0);
  }

  /**
   * The shift is explained by a trend inside the two sides: once the within-side slope is removed,
   * what is left is below {@value #TREND_MIN_EFFECT} × the minimum effect (when the trend is clear) or no longer significant
   * (allowing for the slope's own uncertainty, which grows with the distance between the sides; more
   * strictly where the sides show some trend, {@link #SLOPED_ADJUSTED_T}).
   */
  static boolean drift(StepScan.Candidate c, double[] x, double sigma, double minEffect, double[] scratch) {
    Trend t = trend(c, x, sigma, scratch);
    return t != null && ((t.clear() && Math.abs(t.adjusted()) < TREND_MIN_EFFECT * minEffect)
        || Math.abs(t.adjusted()) / t.se() < (t.slopeZ() >= SOME_SLOPE_Z ? SLOPED_ADJUSTED_T : ADJUSTED_T));
  }

  /**
   * Only the part of {@link #drift} that the data can assert against a recorded step: the trend is clear
   * and, once it is removed, less than the minimum effect is left. (The other part, "no longer
   * significant", is about the noise and never withdraws a step.)
   */
  static boolean clearDrift(StepScan.Candidate c, double[] x, double sigma, double minEffect, double[] scratch) {
    Trend t = trend(c, x, sigma, scratch);
    return t != null && t.clear() && Math.abs(t.adjusted()) < minEffect;
  }

  private record Trend(boolean clear, double adjusted, double se, double slopeZ) {
  }

  private static Trend trend(StepScan.Candidate c, double[] x, double sigma, double[] scratch) {
    double information = sideInformation(c.nBefore()) + sideInformation(c.nAfter());
    if (information == 0) {
      return null;
    }
    double slope = withinSideSlope(c, x);
    double[] detrended = new double[x.length];
    for (int i = c.beforeFrom(); i < c.afterTo(); i++) {
      detrended[i] = x[i] - slope * i;
    }
    double adjusted = Robust.shift(detrended, c.beforeFrom(), c.index(), c.index(), c.afterTo(), scratch);
    double slopeZ = Math.abs(slope) * Math.sqrt(information) / sigma;
    boolean clearTrend = slopeZ >= SLOPE_Z;
    double distance = (c.nBefore() + c.nAfter()) / 2.0;
    double se = sigma * Math.sqrt(StepScan.HL_VARIANCE * (1.0 / c.nBefore() + 1.0 / c.nAfter())
        + distance * distance / information);
    return new Trend(clearTrend, adjusted, se, slopeZ);
  }

  /** Sum of squared deviations of the positions of one side: the slope's information from it. */
  private static double sideInformation(int n) {
    return n < 3 ? 0 : n * ((double) n * n - 1) / 12.0;
  }

  /** Pooled Theil-Sen slope from pairs within the same side only, so the step itself adds nothing. */
  private static double withinSideSlope(StepScan.Candidate c, double[] x) {
    int nb = c.nBefore();
    int na = c.nAfter();
    double[] slopes = new double[nb * (nb - 1) / 2 + na * (na - 1) / 2];
    int n = collect(x, c.beforeFrom(), c.index(), slopes, 0);
    n = collect(x, c.index(), c.afterTo(), slopes, n);
    if (n < 3) {
      return 0;
    }
    return Robust.median(slopes, 0, n);
  }

  private static int collect(double[] x, int from, int to, double[] out, int n) {
    for (int i = from; i < to; i++) {
      for (int j = i + 1; j < to; j++) {
        out[n++] = (x[j] - x[i]) / (j - i);
      }
    }
    return n;
  }

  /**
   * A step at the newest version, reported by the upload that brought it (unconfirmed until a later version shows
   * it too): large against everything the series knows, that is {@value #NEWEST_MIN_EFFECTS} × the minimum effect
   * (itself at least the between-build noise) and at least {@link #SINGLE_VERSION_MIN_CHANGE} (more than a bad
   * session plausibly does), with no precedent in the history; its significance is the p-value's to decide. A bad session
   * that passes is withdrawn by the next version that goes back. With up to {@value #TAIL} versions after the split
   * (the newest, then the builds that confirm it), a trend of the versions before it is extrapolated too far to
   * judge a step of that size by (the drift test's error grows with the distance): only a clear trend that
   * explains the change vetoes it.
   */
  static boolean newestAgainstNoise(StepScan.Candidate c, double[] x, double minEffect) {
    return c.afterTo() == x.length && c.nAfter() == 1 && c.nBefore() >= NEWEST_MIN_BEFORE
        && Math.abs(c.shift()) >= Math.max(NEWEST_MIN_EFFECTS * minEffect, Math.log1p(SINGLE_VERSION_MIN_CHANGE))
        && !strayed(x, c.beforeFrom(), c.index(), Math.abs(c.shift()) * NEWEST_PRECEDENT);
  }

  /** Whether a version in [from, to) strayed from its neighbours (median of five) by {@code by} or more. */
  static boolean strayed(double[] x, int from, int to, double by) {
    for (int i = from; i < to; i++) {
      double local = Robust.median(x, Math.max(from, i - 2), Math.min(to, i + 3));
      if (Math.abs(x[i] - local) >= by) {
        return true;
      }
    }
    return false;
  }

  /**
   * A version of the history that strayed by this fraction of the newest one's change is a precedent: the newest
   * may be one more bad build like it, and waits for the next version.
   */
  static final double NEWEST_PRECEDENT = 0.5;

  /** How large against the minimum effect a step at the newest version must be to be reported at once. */
  static final double NEWEST_MIN_EFFECTS = 2;
  /** A large step with at most this many versions after it, the newest among them, is judged as the newest is. */
  static final int TAIL = 3;
  /** Fewer versions before the newest than this say too little about the between-build spread. */
  static final int NEWEST_MIN_BEFORE = 3;

  /**
   * With a single version on one side (the newest, or the first), it could still be one bad
   * session. Accept only a change of at least twice the minimum effect, when no other version in
   * [from, to) strayed from its neighbours by even a third as much; otherwise wait for more
   * versions to tell.
   */
  static boolean unprecedented(StepScan.Candidate c, double[] x, int from, int to, double minEffect) {
    if (Math.abs(c.shift()) < Math.max(2 * minEffect, Math.log1p(SINGLE_VERSION_MIN_CHANGE))) {
      return false;
    }
    return !strayed(x, from, to, Math.abs(c.shift()) / 3);
  }
}
