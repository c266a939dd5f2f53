package org.perftrack.server.detection;

import org.perftrack.server.stats.MaxSplitT;
import org.perftrack.server.stats.MeanSplit;
import org.perftrack.server.stats.Robust;
import org.perftrack.server.stats.StudentT;
import org.apache.commons.math3.special.Beta;

/**
 * A step judged on all the versions on each side of it, up to the next decided change (or the edge of the
 * detector's window), not only on the scan's window: a 10 % step in 8 % noise is about 2.8 standard errors
 * between one version and the next, and more than 6 with twelve versions on each side. Within one segment
 * (between decided steps) every split is tried with running sums, so one pass costs as many operations as the
 * segment has versions; the best split is the step's version (least squares: the likeliest place of one change).
 *
 * <p>Its error is the segment's own spread around the two levels (m − 2 degrees of freedom for m versions), pooled
 * with the versions' within-run errors where the two agree ({@link LevelError}), never below the versions' within-run
 * error. Its p-value is that of the largest t over all the splits tried ({@link MaxSplitT}: neighbouring splits
 * share all but one version, so this is less than one full test per split). A pooled step must also be at least
 * the minimum effect, agree with the medians of its two sides
 * (an outlying session moves a mean, not a median), and survive a trend: where the versions of the two sides
 * show a common slope ({@value #SOME_SLOPE_Z} × its error or more), or one straight line through the segment fits
 * its versions at least as well as the step does, the step left once the slope is
 * removed must be {@value StepChecks#ADJUSTED_T} × its own error, and where the slope is clear
 * ({@code 3 ×}), {@value StepChecks#TREND_MIN_EFFECT} × the minimum effect. The best split must hold
 * {@value #LOCATED} of the likelihood over all splits, or a run of at most {@value #MAX_SUSPECTS}
 * versions around it {@value StepLocation#MASS} (a small step is often one version off or more, and a step at the
 * wrong version blames the wrong change: it is reported with those versions as its suspects), and the last versions
 * of the segment, too few to be split off, must not have moved on in the step's direction (a later change not yet
 * decided).
 *
 * <p>An upload judges the segment it fell in (and, when its version is itself a step, the segment before), so a
 * step that waited for more versions is judged again by every upload that adds one, up to the edge of the window
 * the detector reads (2 × window versions each way).
 */
final class PooledScan {
  /** Versions needed on each side of a pooled step: fewer is the windowed scan's business. */
  static final int MIN_SIDE = 4;
  /** The between-version spread is never taken below this share of the versions' within-run error. */
  static final double WITHIN_FLOOR = 0.75;
  private static final double CLEAR_SLOPE_Z = 3;
  /**
   * A common slope of the two sides this many times its error or more calls for the trend test, as does a segment
   * that one straight line fits at least as well as the step (a line and a step have as many parameters, so the
   * better fit is the likelier shape): a slow drift, seen on long sides, looks like a step whose slope stays only
   * moderately clear, while a step in noise without a trend rarely fits worse than a line, and is then judged on its
   * own error, without the slope's.
   */
  static final double SOME_SLOPE_Z = 1.5;

  /** A pooled step at {@code index} with its sides {@code [from, index)} and {@code [index, to)}. */
  record Found(int index, int from, int to, double shift, double t, double p, StepLocation.Suspects suspects) {
  }

  /**
   * The versions' within-run errors (log; NaN where a version has fewer than two samples) and the degrees of
   * freedom each rests on (its samples less one; 1 where only that much is known).
   */
  record Within(double[] se, double dfPerVersion) {
  }

  /**
   * The error of one version's level around its side's level, and its degrees of freedom. The residual spread of
   * the segment's {@code m} levels around the two sides has only m − 2 degrees of freedom; the within-run errors of
   * those versions estimate the same variance on many more samples when sessions add nothing of their own. Where
   * the residual variance is consistent with the mean within-run variance (an F test, see
   * {@link #CONSISTENT_ALPHA}), the two are pooled with their degrees of freedom; where it is larger (sessions that
   * differ, a drift, single values), the residual spread alone is the error. Never below {@code floor}.
   */
  record LevelError(double sd, double df) {
    static LevelError of(double sse, int from, int to, Within within, double floor) {
      int m = to - from;
      double residual = sse / (m - 2);
      double sum = 0;
      int known = 0;
      for (int i = from; i < Math.min(to, within.se().length); i++) {
        double se = within.se()[i];
        if (!Double.isNaN(se) && se > 0) {
          sum += se * se;
          known++;
        }
      }
      double withinDf = MAD_EFFICIENCY * within.dfPerVersion() * known;
      if (known >= MIN_SIDE && withinDf >= 1) {
        double withinVar = sum / known;
        double ratio = residual / withinVar;
        double below = Beta.regularizedBeta((m - 2) * ratio / ((m - 2) * ratio + withinDf), (m - 2) / 2.0,
            withinDf / 2); // the F distribution's P(F ≤ ratio)
        if (below <= 1 - CONSISTENT_ALPHA) {
          double pooled = ((m - 2) * residual + withinDf * withinVar) / (m - 2 + withinDf);
          return new LevelError(Math.max(Math.sqrt(pooled), floor), m - 2 + withinDf);
        }
      }
      return new LevelError(Math.max(Math.sqrt(residual), floor), m - 2);
    }
  }

  /**
   * The residual variance of a segment counts as consistent with its versions' within-run errors while it is no
   * larger than the F distribution's {@code 1 − CONSISTENT_ALPHA} quantile (here its median) would make it: sessions
   * that add noise of their own about as large as the within-run error (a shared CI runner) are told apart only
   * half the time on a dozen versions, and pooled, they would make a pooled step look surer than it is.
   */
  static final double CONSISTENT_ALPHA = 0.5;

  /**
   * A version's within-run error is the MAD of its few samples: as an estimate of a variance it is worth about this
   * share of the degrees of freedom of a sample variance on as many samples.
   */
  static final double MAD_EFFICIENCY = 0.37;

  private PooledScan() {
  }

  /**
   * The best single step of {@code x[from, to)} if it passes the checks above, else null; {@code floor} is the
   * least between-version spread to assume (log).
   */
  static Found find(double[] x, int from, int to, double minEffect, double floor, Within within) {
    int m = to - from;
    if (m < 2 * MIN_SIDE) {
      return null;
    }
    double total = 0;
    double totalSq = 0;
    for (int i = from; i < to; i++) {
      total += x[i];
      totalSq += x[i] * x[i];
    }
    double before = 0;
    int best = -1;
    double bestSse = Double.MAX_VALUE;
    double[] sses = new double[m];
    for (int i = from; i < to - MIN_SIDE; i++) {
      before += x[i];
      int k = i + 1;
      int nb = k - from;
      if (nb < MIN_SIDE) {
        continue;
      }
      int na = to - k;
      double after = total - before;
      double sse = Math.max(totalSq - before * before / nb - after * after / na, 0);
      sses[k - from] = sse;
      if (sse < bestSse) {
        bestSse = sse;
        best = k;
      }
    }
    if (best < 0) {
      return null;
    }
    double s = LevelError.of(bestSse, from, to, within, floor).sd();
    double[] likelihood = new double[to - MIN_SIDE - (from + MIN_SIDE) + 1];
    double weights = 0;
    for (int k = from + MIN_SIDE; k <= to - MIN_SIDE; k++) {
      likelihood[k - from - MIN_SIDE] = Math.exp(-(sses[k - from] - bestSse) / (2 * s * s));
      weights += likelihood[k - from - MIN_SIDE];
    }
    for (int i = 0; i < likelihood.length; i++) {
      likelihood[i] /= weights;
    }
    StepLocation.Suspects suspects = StepLocation.Suspects.of(likelihood, from + MIN_SIDE);
    if (1 / weights < LOCATED && suspects.width() > MAX_SUSPECTS) {
      return null;
    }
    Found f = judged(x, from, best, to, minEffect, floor, within, true);
    return f == null ? null
        : new Found(f.index(), f.from(), f.to(), f.shift(), f.t(), f.p(), suspects);
  }

  /**
   * How sure the best split must be to be the step's version (its share of the likelihood over all splits): a
   * small step in large noise is often one version early or late, and a step reported at the wrong version
   * blames the wrong change. A slow drift, which has no version of its own, is spread over many splits.
   */
  static final double LOCATED = 0.7;

  /**
   * The most suspect versions a pooled step is reported with: a step of three or four times its error on each side's
   * mean, found on a whole segment, is often placeable only to within five or six versions.
   */
  static final int MAX_SUSPECTS = 6;

  /**
   * Whether a step recorded at {@code at} still holds on the versions {@code [from, at)} and {@code [at, to)}
   * (the split is given, so no correction for the splits tried, but no split near it may fit better): what keeps a
   * pooled step from being withdrawn as "no longer a step" by the windowed test, which sees fewer versions.
   */
  static boolean holds(double[] x, int from, int at, int to, double minEffect, double floor, Within within,
      double shiftSign, double maxP) {
    if (at - from < MIN_SIDE || to - at < MIN_SIDE) {
      return false;
    }
    Found f = judged(x, from, at, to, minEffect, floor, within, false);
    return f != null && f.shift() * shiftSign > 0 && f.p() <= maxP && bestNearby(x, from, at, to);
  }

  /** Whether no split within {@link Reconciler#NEAR} versions of {@code at} fits the segment better. */
  private static boolean bestNearby(double[] x, int from, int at, int to) {
    double own = sse(x, from, at, to);
    for (int k = Math.max(from + 1, at - Reconciler.NEAR); k <= Math.min(to - 1, at + Reconciler.NEAR); k++) {
      if (k != at && sse(x, from, k, to) < own) {
        return false;
      }
    }
    return true;
  }

  private static double sse(double[] x, int from, int k, int to) {
    return MeanSplit.of(x, from, k, to).sse();
  }

  private static Found judged(double[] x, int from, int k, int to, double minEffect, double floor, Within within,
      boolean bestOfAll) {
    int m = to - from;
    MeanSplit split = MeanSplit.of(x, from, k, to);
    double meanB = split.before();
    double meanA = split.after();
    double shift = split.shift();
    LevelError error = LevelError.of(split.sse(), from, to, within, floor);
    double t = shift / (error.sd() * Math.sqrt(1.0 / split.nBefore() + 1.0 / split.nAfter()));
    if (Math.abs(shift) < minEffect) {
      return null;
    }
    double medianShift = Robust.median(x, k, to) - Robust.median(x, from, k);
    if (medianShift * Math.signum(shift) < Math.abs(shift) / 2) {
      return null;
    }
    if (bestOfAll && tailMovedOn(x, k, to, shift)) {
      return null;
    }
    if (drift(x, from, k, to, meanB, meanA, shift, floor, minEffect, split.sse())) {
      return null;
    }
    double p = bestOfAll ? MaxSplitT.p(t, error.df(), m, MIN_SIDE) : StudentT.twoSidedP(t, error.df());
    return new Found(k, from, to, shift, t, p, StepLocation.Suspects.at(k));
  }

  /**
   * Whether the last versions of the segment, too few to be split off, moved on in the step's direction by half
   * the step or more: a later change not yet decided leans on the after side, and a split tried earlier picks up
   * part of it. Such a step waits until the later change is decided.
   */
  private static boolean tailMovedOn(double[] x, int k, int to, double shift) {
    for (int tail = to - 2; tail >= to - (MIN_SIDE - 1); tail--) {
      if (tail - k >= 2 && (mean(x, tail, to) - mean(x, k, tail)) * Math.signum(shift) > Math.abs(shift) / 2) {
        return true;
      }
    }
    return false;
  }

  /**
   * One line per side with a common slope (the slope from the versions within each side only, so the step adds
   * nothing to it): whether that slope explains the step. Asked only where the slope is {@link #SOME_SLOPE_Z} × its
   * error or more, or where one line through the whole segment leaves no more residual than the step
   * ({@code stepSse}).
   */
  private static boolean drift(double[] x, int from, int k, int to, double meanB, double meanA, double shift,
      double floor, double minEffect, double stepSse) {
    int nb = k - from;
    int na = to - k;
    double centerB = (from + k - 1) / 2.0;
    double centerA = (k + to - 1) / 2.0;
    double sxx = 0;
    double sxy = 0;
    double syy = 0;
    for (int i = from; i < to; i++) {
      double dx = i - (i < k ? centerB : centerA);
      double dy = x[i] - (i < k ? meanB : meanA);
      sxx += dx * dx;
      sxy += dx * dy;
      syy += dy * dy;
    }
    double slope = sxy / sxx;
    int df = nb + na - 3;
    double s = Math.max(Math.sqrt(Math.max(syy - slope * sxy, 0) / df), floor);
    double slopeZ = Math.abs(slope) / (s / Math.sqrt(sxx));
    if (slopeZ < SOME_SLOPE_Z && lineSse(x, from, to) > stepSse) {
      return false;
    }
    double distance = centerA - centerB;
    double adjusted = shift - slope * distance;
    double se = s * Math.sqrt(1.0 / nb + 1.0 / na + distance * distance / sxx);
    return Math.abs(adjusted) / se < StepChecks.ADJUSTED_T
        || (slopeZ >= CLEAR_SLOPE_Z && Math.abs(adjusted) < StepChecks.TREND_MIN_EFFECT * minEffect)
        || adjusted * shift <= 0;
  }

  /** The residual sum of squares of one straight line through {@code x[from, to)}, without a step. */
  static double lineSse(double[] x, int from, int to) {
    double center = (from + to - 1) / 2.0;
    double mean = mean(x, from, to);
    double sxx = 0;
    double sxy = 0;
    double syy = 0;
    for (int i = from; i < to; i++) {
      double dx = i - center;
      double dy = x[i] - mean;
      sxx += dx * dx;
      sxy += dx * dy;
      syy += dy * dy;
    }
    return sxx == 0 ? syy : Math.max(syy - sxy * sxy / sxx, 0);
  }

  private static double mean(double[] x, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += x[i];
    }
    return sum / (to - from);
  }
}
