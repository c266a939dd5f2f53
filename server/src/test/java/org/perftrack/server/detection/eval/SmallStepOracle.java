package org.perftrack.server.detection.eval;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

import org.perftrack.server.stats.MeanSplit;
import org.perftrack.server.stats.Robust;

/**
 * What a detector that knew a small step's place could claim: for every step of the small-steps families, the
 * two-sample t of the version levels split at its true version (the segment's residual spread, no search over
 * splits), and whether the smallest run of versions holding 90 % of the likelihood of its place (least squares
 * over all splits of the series, at least 4 versions a side, as the pooled scan places a step) covers it and is at
 * most 4, 6 or 8 versions wide. The share found at a t threshold is an upper bound for any detector that must
 * pass that threshold; with the run it is the bound for one that must also name where the step is.
 */
final class SmallStepOracle {
  static final double[] THRESHOLDS = {3.5, 4.0, 4.3, 4.6};
  static final int[] WIDTHS = {4, 6, 8};
  private static final int MIN_SIDE = 4;
  private int steps;
  private final int[] above = new int[THRESHOLDS.length];
  private final int[][] placed = new int[THRESHOLDS.length][WIDTHS.length];

  void add(LabeledSeries s) {
    if (!s.family().startsWith("SMALL_STEPS") || s.labels().size() != 1) {
      return;
    }
    double[] x = Arrays.stream(s.samples()).mapToDouble(v -> Math.log(Robust.trimmedMean(v))).toArray();
    int k = s.labels().get(0).index();
    double t = Math.abs(MeanSplit.of(x, 0, k, x.length).t(0));
    int[] run = run(x);
    steps++;
    for (int i = 0; i < THRESHOLDS.length; i++) {
      if (t < THRESHOLDS[i]) {
        continue;
      }
      above[i]++;
      for (int w = 0; w < WIDTHS.length; w++) {
        placed[i][w] += run[0] <= k && k <= run[1] && run[1] - run[0] + 1 <= WIDTHS[w] ? 1 : 0;
      }
    }
  }

  /** The smallest run of splits around the likeliest holding 90 % of the likelihood (first, last). */
  private static int[] run(double[] x) {
    int m = x.length;
    double[] sse = new double[m];
    int best = -1;
    for (int k = MIN_SIDE; k <= m - MIN_SIDE; k++) {
      sse[k] = MeanSplit.of(x, 0, k, m).sse();
      if (best < 0 || sse[k] < sse[best]) {
        best = k;
      }
    }
    double s2 = sse[best] / (m - 2);
    double[] likelihood = new double[m];
    double total = 0;
    for (int k = MIN_SIDE; k <= m - MIN_SIDE; k++) {
      likelihood[k] = Math.exp(-(sse[k] - sse[best]) / (2 * s2));
      total += likelihood[k];
    }
    int first = best;
    int last = best;
    double mass = likelihood[best] / total;
    while (mass < 0.9) {
      double left = first - 1 >= MIN_SIDE ? likelihood[first - 1] : -1;
      double right = last + 1 <= m - MIN_SIDE ? likelihood[last + 1] : -1;
      if (left >= right) {
        mass += likelihood[--first] / total;
      } else {
        mass += likelihood[++last] / total;
      }
    }
    return new int[] {first, last};
  }

  void print(PrintStream out) {
    out.printf(Locale.ROOT, "small steps, oracle at the true version (%d steps): share with t >= threshold; of them"
        + " placed by a run of <= %s versions holding 90 %% of the likelihood that covers it%n", steps,
        Arrays.toString(WIDTHS));
    for (int i = 0; i < THRESHOLDS.length; i++) {
      StringBuilder b = new StringBuilder();
      for (int w = 0; w < WIDTHS.length; w++) {
        b.append(String.format(Locale.ROOT, "  <=%d: %.3f", WIDTHS[w], (double) placed[i][w] / Math.max(1, steps)));
      }
      out.printf(Locale.ROOT, "       t >= %.1f: %.3f%s%n", THRESHOLDS[i], (double) above[i] / Math.max(1, steps), b);
    }
  }
}
