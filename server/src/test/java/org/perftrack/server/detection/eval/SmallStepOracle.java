package org.perftrack.server.detection.eval;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Random;
import java.util.TreeMap;

import org.perftrack.server.stats.MeanSplit;
import org.perftrack.server.stats.Robust;

/**
 * What a detector that knew a small step's place could claim: for every step of the small-steps families, the
 * two-sample t of the version levels split at its true version (the segment's residual spread, no search over
 * splits), and whether the smallest run of versions holding 90 % of the likelihood of its place (least squares
 * over all splits of the series, at least 4 versions a side, as the pooled scan places a step) covers it and is at
 * most 4, 6 or 8 versions wide. The share found at a t threshold is an upper bound for any detector that must
 * pass that threshold; with the run it is the bound for one that must also name where the step is.
 *
 * <p>The bound at the false-alert target: a detector allowed {@link #ALERTS_PER_SERIES} false alerts per noise-only
 * series, judging once with the whole history in hand (a detector judging as versions arrive looks many times and
 * needs more), must ask at least the quantile of the largest |t| over a noise-only series' splits. For version levels
 * with normal noise that quantile depends only on the number of versions ({@code t} is scale-free), so it is
 * simulated here with a fixed seed. The same bound is given for levels taken as the mean of the samples' logs (the
 * most efficient estimate for these two families, but not robust to an outlying sample, as the trimmed mean is).
 */
final class SmallStepOracle {
  static final double[] THRESHOLDS = {3.5, 4.0, 4.3, 4.6};
  static final int[] WIDTHS = {4, 6, 8, Integer.MAX_VALUE};
  static final double ALERTS_PER_SERIES = 0.005;
  private static final int MIN_SIDE = 4;
  private static final int NULL_TRIALS = 200_000;
  private int steps;
  private final int[] above = new int[THRESHOLDS.length];
  private final int[][] placed = new int[THRESHOLDS.length][WIDTHS.length];
  /** Per family and level estimate (trimmed, mean of logs): t at the true version and the placing run. */
  private final TreeMap<String, java.util.List<double[]>> atTruth = new TreeMap<>();

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
        placed[i][w] += covers(run, k, WIDTHS[w]) ? 1 : 0;
      }
    }
    double[] logMean = Arrays.stream(s.samples())
        .mapToDouble(v -> Arrays.stream(v).map(Math::log).average().orElseThrow()).toArray();
    int[] meanRun = run(logMean);
    atTruth.computeIfAbsent(s.family(), f -> new java.util.ArrayList<>()).add(new double[] {
        t, run[0], run[1], run[2], Math.abs(MeanSplit.of(logMean, 0, k, logMean.length).t(0)), meanRun[0], meanRun[1],
        meanRun[2], k});
  }

  private static boolean covers(int[] run, int k, int width) {
    return run[0] <= k && k <= run[1] && run[1] - run[0] + 1 <= width;
  }

  /** The smallest run of splits around the likeliest holding 90 % of the likelihood (first, last, the likeliest). */
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
    return new int[] {first, last, best};
  }

  /**
   * The |t| a noise-only series of {@code m} normal version levels exceeds somewhere among its splits (at least
   * {@link #MIN_SIDE} versions a side) with probability {@code alerts}: simulated, fixed seed.
   */
  static double nullThreshold(int m, double alerts) {
    Random random = new Random(20061212L);
    double[] largest = new double[NULL_TRIALS];
    double[] sum = new double[m + 1];
    double[] squares = new double[m + 1];
    for (int trial = 0; trial < NULL_TRIALS; trial++) {
      for (int v = 0; v < m; v++) {
        double g = random.nextGaussian();
        sum[v + 1] = sum[v] + g;
        squares[v + 1] = squares[v] + g * g;
      }
      double max = 0;
      for (int k = MIN_SIDE; k <= m - MIN_SIDE; k++) {
        double before = sum[k] / k;
        double after = (sum[m] - sum[k]) / (m - k);
        double sse = squares[m] - k * before * before - (m - k) * after * after;
        double t = Math.abs(after - before) / Math.sqrt(sse / (m - 2) * (1.0 / k + 1.0 / (m - k)));
        max = Math.max(max, t);
      }
      largest[trial] = max;
    }
    Arrays.sort(largest);
    return largest[(int) Math.ceil((1 - alerts) * NULL_TRIALS) - 1];
  }

  void print(PrintStream out) {
    out.printf(Locale.ROOT, "small steps, oracle at the true version (%d steps): share with t >= threshold; of them"
        + " placed by a run of <= [4, 6, 8, any] versions holding 90 %% of the likelihood that covers it%n", steps);
    for (int i = 0; i < THRESHOLDS.length; i++) {
      out.printf(Locale.ROOT, "       t >= %.1f: %.3f%s%n", THRESHOLDS[i], (double) above[i] / Math.max(1, steps),
          widths(placed[i], steps));
    }
    if (atTruth.isEmpty()) {
      return;
    }
    int m = SeriesGenerator.VERSIONS;
    double threshold = nullThreshold(m, ALERTS_PER_SERIES);
    out.printf(Locale.ROOT, "small steps, bound at %.0f false alerts per 1,000 noise-only series, judged once at the"
        + " end: the largest |t| over the splits of %d normal version levels passes %.2f in %.1f %% of noise-only"
        + " series (%,d simulated), so no detector within the target may ask less; share of small steps at their true"
        + " version with t >= %.2f, of them placed exactly (the likeliest split is the step's version) and covered by a run"
        + " of <= [4, 6, 8, any] versions:%n",
        ALERTS_PER_SERIES * 1000, m, threshold, ALERTS_PER_SERIES * 100, NULL_TRIALS, threshold);
    int[] all = new int[2 * (2 + WIDTHS.length)];
    int total = 0;
    for (var e : atTruth.entrySet()) {
      int[] counts = bound(e.getValue(), threshold);
      for (int i = 0; i < all.length; i++) {
        all[i] += counts[i];
      }
      total += e.getValue().size();
      print(out, e.getKey(), counts, e.getValue().size());
    }
    print(out, "SMALL_STEPS (both)", all, total);
  }

  private static void print(PrintStream out, String family, int[] counts, int n) {
    int w = WIDTHS.length;
    for (int e = 0; e < 2; e++) {
      int at = e * (2 + w);
      out.printf(Locale.ROOT, "       %-24s %s: %.3f  exact: %.3f%s%n", e == 0 ? family : "",
          e == 0 ? "trimmed mean" : "mean of logs", (double) counts[at] / n, (double) counts[at + 1] / n,
          widths(Arrays.copyOfRange(counts, at + 2, at + 2 + w), n));
    }
  }

  /** Per level estimate: passing the threshold, the likeliest split at the true version, covered by each width. */
  private static int[] bound(java.util.List<double[]> rows, double threshold) {
    int w = WIDTHS.length;
    int[] counts = new int[2 * (2 + w)];
    for (double[] r : rows) {
      int k = (int) r[8];
      for (int e = 0; e < 2; e++) {
        if (r[4 * e] < threshold) {
          continue;
        }
        int at = e * (2 + w);
        counts[at]++;
        counts[at + 1] += (int) r[4 * e + 3] == k ? 1 : 0;
        int[] run = {(int) r[4 * e + 1], (int) r[4 * e + 2]};
        for (int i = 0; i < w; i++) {
          counts[at + 2 + i] += covers(run, k, WIDTHS[i]) ? 1 : 0;
        }
      }
    }
    return counts;
  }

  private static String widths(int[] counts, int n) {
    StringBuilder b = new StringBuilder();
    for (int w = 0; w < WIDTHS.length; w++) {
      String label = WIDTHS[w] == Integer.MAX_VALUE ? "any" : "<=" + WIDTHS[w];
      b.append(String.format(Locale.ROOT, "  %s: %.3f", label, (double) counts[w] / Math.max(1, n)));
    }
    return b.toString();
  }
}
