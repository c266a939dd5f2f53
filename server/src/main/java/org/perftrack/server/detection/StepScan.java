package org.perftrack.server.detection;

import org.perftrack.server.stats.Robust;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Binary segmentation over one local window of log levels. At each candidate version k the
 * {@code window} versions before are compared with the {@code window} versions from k on (never
 * across an already found step), with a Hodges-Lehmann shift scaled by the series' between-session
 * noise. A candidate becomes a step only if it is also large enough, persistent (not one session),
 * and not a slow drift seen through a window.
 */
final class StepScan {
  /** Variance of the Hodges-Lehmann shift relative to a mean difference (normal data). */
  static final double HL_VARIANCE = Math.PI / 3;
  /** Candidates below this |t| are not even considered (final significance comes later). */
  static final double T_PRELIM = 4.0;
  /** Variance of a difference of medians relative to a mean difference (normal data). */
  static final double MEDIAN_VARIANCE = Math.PI / 2;
  /** A step's t from medians is about sqrt(HL_VARIANCE / MEDIAN_VARIANCE) of its t from the shift. */
  static final double QUICK_EFFICIENCY = 0.8;

  record Candidate(int index, int beforeFrom, int afterTo, double shift, double t, int positions) {
    int nBefore() {
      return index - beforeFrom;
    }

    int nAfter() {
      return afterTo - index;
    }
  }

  private final double[] x;
  private final double sigma;
  private final int window;
  private final double minEffect;
  private final double[] scratch;
  private final List<Candidate> found = new ArrayList<>();

  StepScan(double[] x, double sigma, int window, double minEffect) {
    this.x = x;
    this.sigma = sigma;
    this.window = window;
    this.minEffect = minEffect;
    this.scratch = new double[window * window];
  }

  List<Candidate> run() {
    split(0, x.length);
    found.sort(Comparator.comparingInt(Candidate::index));
    return found;
  }

  private void split(int s, int e) {
    if (e - s < 2) {
      return;
    }
    Candidate[] all = quickCandidates(s, e);
    java.util.Set<Integer> tried = new java.util.HashSet<>();
    for (int i : promising(all)) {
      int k = refine(all[i].index(), s, e);
      if (!tried.add(k)) {
        continue;
      }
      // the newest version is one pre-stated question per upload (is the build just uploaded a step?), not a scan
      Candidate c = candidate(k, s, e, k == x.length - 1 ? 1 : Math.min(all.length, 2 * window));
      if (Math.abs(c.t()) >= T_PRELIM && StepChecks.accepted(c, x, sigma, minEffect, scratch)) {
        found.add(c);
        split(s, c.index());
        split(c.index(), e);
        return;
      }
    }
  }

  /**
   * The quick candidates worth refining, by falling |t| (ties in version order): those with |t| of at least
   * {@code T_PRELIM × QUICK_EFFICIENCY}, and those whose t is undefined when no candidate falls below the bar
   * (the order a sort of all candidates by −|t| visits, stopping at the first below the bar).
   */
  private static List<Integer> promising(Candidate[] all) {
    List<Integer> above = new ArrayList<>();
    List<Integer> undefined = new ArrayList<>();
    boolean anyBelow = false;
    for (int i = 0; i < all.length; i++) {
      double t = Math.abs(all[i].t());
      if (Double.isNaN(t)) {
        undefined.add(i);
      } else if (t < T_PRELIM * QUICK_EFFICIENCY) {
        anyBelow = true;
      } else {
        above.add(i);
      }
    }
    above.sort(Comparator.comparingDouble(i -> -Math.abs(all[i].t())));
    if (!anyBelow) {
      above.addAll(undefined);
    }
    return above;
  }

  /**
   * Difference of window medians at every version of (s, e): a cheap first pass; only promising versions get the
   * full shift. The two windows slide with the split, kept sorted (the same medians as sorting each window).
   */
  Candidate[] quickCandidates(int s, int e) {
    Candidate[] all = new Candidate[e - s - 1];
    SortedWindow left = new SortedWindow(window);
    SortedWindow right = new SortedWindow(window);
    left.add(x[s]);
    for (int i = s + 1; i < Math.min(e, s + 1 + window); i++) {
      right.add(x[i]);
    }
    for (int k = s + 1; k < e; k++) {
      if (k > s + 1) {
        if (k - 1 - window >= s) {
          left.remove(x[k - 1 - window]);
        }
        left.add(x[k - 1]);
        right.remove(x[k - 1]);
        if (k - 1 + window < e) {
          right.add(x[k - 1 + window]);
        }
      }
      int from = Math.max(s, k - window);
      int to = Math.min(e, k + window);
      double shift = right.median() - left.median();
      double se = sigma * Math.sqrt(MEDIAN_VARIANCE * (1.0 / (k - from) + 1.0 / (to - k)));
      all[k - s - 1] = new Candidate(k, from, to, shift, shift / se, 0);
    }
    return all;
  }

  /** A multiset of at most {@code capacity} values kept in {@link Double#compare} order (as {@code Arrays.sort}). */
  static final class SortedWindow {
    private final double[] values;
    private int size;

    SortedWindow(int capacity) {
      values = new double[capacity];
    }

    void add(double v) {
      int at = size;
      while (at > 0 && Double.compare(values[at - 1], v) > 0) {
        values[at] = values[at - 1];
        at--;
      }
      values[at] = v;
      size++;
    }

    void remove(double v) {
      int at = 0;
      while (Double.compare(values[at], v) != 0) {
        at++;
      }
      System.arraycopy(values, at + 1, values, at, size - at - 1);
      size--;
    }

    double median() {
      return Robust.sortedMedian(values, size);
    }
  }

  private Candidate candidate(int k, int s, int e, int positions) {
    int from = Math.max(s, k - window);
    int to = Math.min(e, k + window);
    double shift = Robust.shift(x, from, k, k, to, scratch);
    double se = sigma * Math.sqrt(HL_VARIANCE * (1.0 / (k - from) + 1.0 / (to - k)));
    return new Candidate(k, from, to, shift, shift / se, positions);
  }

  /**
   * Moves the split to the version with the least absolute deviation from the two levels. The
   * windowed shift is robust, so it stays large even when the split is several versions late:
   * its maximum locates a step only roughly, the deviation pins the exact version.
   */
  private int refine(int k, int s, int e) {
    int radius = window / 2;
    int spanFrom = Math.max(s, k - window);
    int spanTo = Math.min(e, k + window);
    int best = k;
    double bestCost = Double.MAX_VALUE;
    for (int c = Math.max(spanFrom + 1, k - radius); c <= Math.min(spanTo - 1, k + radius); c++) {
      double cost = absoluteDeviation(spanFrom, c) + absoluteDeviation(c, spanTo);
      if (cost < bestCost - 1e-12) {
        bestCost = cost;
        best = c;
      }
    }
    return best;
  }

  private double absoluteDeviation(int from, int to) {
    double center = Robust.median(x, from, to);
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += Math.abs(x[i] - center);
    }
    return sum;
  }
}
