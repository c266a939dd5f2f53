package org.perftrack.server.detection;

import org.perftrack.server.stats.Robust;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

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
    Candidate[] all = new Candidate[e - s - 1];
    for (int k = s + 1; k < e; k++) {
      all[k - s - 1] = quickCandidate(k, s, e);
    }
    Integer[] order = IntStream.range(0, all.length).boxed().toArray(Integer[]::new);
    java.util.Arrays.sort(order, Comparator.comparingDouble(i -> -Math.abs(all[i].t())));
    java.util.Set<Integer> tried = new java.util.HashSet<>();
    for (int i : order) {
      if (Math.abs(all[i].t()) < T_PRELIM * QUICK_EFFICIENCY) {
        return;
      }
      int k = refine(all[i].index(), s, e);
      if (!tried.add(k)) {
        continue;
      }
      Candidate c = candidate(k, s, e, Math.min(all.length, 2 * window));
      if (Math.abs(c.t()) >= T_PRELIM && StepChecks.accepted(c, x, sigma, minEffect, scratch)) {
        found.add(c);
        split(s, c.index());
        split(c.index(), e);
        return;
      }
    }
  }

  /** Difference of window medians: a cheap first pass; only promising versions get the full shift. */
  private Candidate quickCandidate(int k, int s, int e) {
    int from = Math.max(s, k - window);
    int to = Math.min(e, k + window);
    double shift = Robust.median(x, k, to) - Robust.median(x, from, k);
    double se = sigma * Math.sqrt(MEDIAN_VARIANCE * (1.0 / (k - from) + 1.0 / (to - k)));
    return new Candidate(k, from, to, shift, shift / se, 0);
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
