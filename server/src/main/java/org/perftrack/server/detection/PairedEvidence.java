package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.perftrack.server.stats.PairedRounds;
import org.perftrack.server.stats.RandomEffects;
import org.perftrack.server.stats.RankEvidence;
import org.perftrack.server.stats.Robust;
import org.perftrack.server.stats.StudentT;

/**
 * Steps seen inside interleaved sessions. Within one batch, neighbouring members (in version order)
 * are compared round by round ({@link PairedRounds}), which cancels the session-to-session noise of a
 * loaded machine; the estimates of every batch that spans the same version pair are combined
 * ({@link RandomEffects}), with the rounds' degrees of freedom. When the members are not adjacent
 * versions, the step is placed where the levels in between cross over. A pair is a clean step, which
 * stands on its own whatever the series' noise model says, when in every batch either the fast sides of
 * its raw samples are separated by at least {@link #CLEAN_GAP} ({@link RankEvidence#fastSideSeparation}: every
 * sample of the slower version beyond the fast half of the faster one, since a disturbance only ever slows
 * a sample down, so one to four wild samples in five cannot make or hide a step), or every round moved by
 * at least that much in the same direction (a burst that slows one round slows both versions).
 */
final class PairedEvidence {
  /** The "wide margin" of a clean step: the closest samples of the two sides differ by ×1.5. */
  static final double CLEAN_GAP = Math.log(1.5);

  /**
   * Evidence at {@code index} (first version on the new level): the combined log shift, its p-value and
   * whether it is clean; {@code span} = how many versions apart the batch members were (1: adjacent).
   */
  record Found(int index, double shift, double p, boolean clean, int span) {
  }

  private PairedEvidence() {
  }

  /**
   * Paired evidence at indices lo..hi of the local window whose start is {@code from} in the series, one
   * per index that a batch spans (p = 1 when the shift is below {@code minEffect}).
   */
  static List<Found> find(SeriesHistory series, int from, Levels levels, int lo, int hi, double minEffect) {
    if (series.batchRuns().isEmpty()) {
      return List.of();
    }
    boolean slowerIsHigher = series.direction() == Direction.LOWER_IS_BETTER;
    Map<String, TreeMap<Integer, double[]>> batches = new LinkedHashMap<>();
    for (BatchRun run : series.batchRuns()) {
      int i = series.indexOf(run.version()) - from;
      if (i >= 0 && i < levels.size()) {
        batches.computeIfAbsent(run.batch(), b -> new TreeMap<>()).putIfAbsent(i, run.samples());
      }
    }
    Map<Integer, List<Pair>> byIndex = new TreeMap<>();
    for (TreeMap<Integer, double[]> members : batches.values()) {
      Map.Entry<Integer, double[]> previous = null;
      for (Map.Entry<Integer, double[]> e : members.entrySet()) {
        if (previous != null) {
          PairedRounds rounds = PairedRounds.of(previous.getValue(), e.getValue());
          if (rounds != null) {
            int k = crossing(levels.x(), previous.getKey(), e.getKey());
            double gap = RankEvidence.fastSideSeparation(previous.getValue(), e.getValue(), slowerIsHigher);
            double rankP = RankEvidence.mannWhitneyP(e.getValue(), previous.getValue());
            byIndex.computeIfAbsent(k, x -> new ArrayList<>())
                .add(new Pair(rounds, gap, rankP, e.getKey() - previous.getKey()));
          }
        }
        previous = e;
      }
    }
    List<Found> out = new ArrayList<>();
    byIndex.forEach((k, pairs) -> {
      if (k < lo || k > hi) {
        return;
      }
      double[] est = new double[pairs.size()];
      double[] se = new double[pairs.size()];
      int df = 0;
      int span = 0;
      double tau2 = pairNoise(byIndex, k);
      for (int i = 0; i < est.length; i++) {
        est[i] = pairs.get(i).rounds().logRatio();
        se[i] = Math.sqrt(pairs.get(i).rounds().se() * pairs.get(i).rounds().se() + tau2);
        df += pairs.get(i).rounds().df();
        span = Math.max(span, pairs.get(i).span());
      }
      RandomEffects combined = RandomEffects.combine(est, se);
      double shift = combined.estimate();
      double p = Math.abs(shift) < minEffect ? 1 : StudentT.twoSidedP(shift / combined.se(), df);
      boolean clean = pairs.stream().allMatch(x -> Math.signum(x.rounds().logRatio()) == Math.signum(shift)
          && (x.gap() * Math.signum(shift) >= CLEAN_GAP || x.rounds().minRound() >= CLEAN_GAP));
      if (clean) {
        p = Math.min(p, pairs.stream().mapToDouble(Pair::rankP).max().orElseThrow());
      }
      out.add(new Found(k, shift, p, clean, span));
    });
    return out;
  }

  private record Pair(PairedRounds rounds, double gap, double rankP, int span) {
  }

  /** Median of a chi-square with one degree of freedom: median(z²) for a standard normal z. */
  private static final double CHI2_1_MEDIAN = 0.4549;
  /** Fewer other pairs than this say nothing about the pair-to-pair noise. */
  static final int MIN_OTHER_PAIRS = 4;

  /**
   * Pair-to-pair noise beyond what the rounds of one pair show (variance, log²), from the series' other
   * interleaved pairs (all but those at {@code k}): a two-mode benchmark can sit in one mode for every round
   * of one version and the other mode for the next, which five rounds cannot tell from a step, but the
   * series' other pairs show it as a spread of their ratios larger than their own errors. Robust (medians),
   * so the few real steps among the other pairs do not count; 0 with fewer than {@value #MIN_OTHER_PAIRS}.
   */
  private static double pairNoise(Map<Integer, List<Pair>> byIndex, int k) {
    List<double[]> others = new ArrayList<>();
    byIndex.forEach((i, pairs) -> {
      if (i != k) {
        pairs.forEach(p -> others.add(new double[] {p.rounds().logRatio(), p.rounds().se()}));
      }
    });
    if (others.size() < MIN_OTHER_PAIRS) {
      return 0;
    }
    double[] squares = others.stream().mapToDouble(o -> o[0] * o[0]).toArray();
    double[] variances = others.stream().mapToDouble(o -> o[1] * o[1]).toArray();
    return Math.max(0, Robust.median(squares) / CHI2_1_MEDIAN - Robust.median(variances));
  }

  /**
   * Where between batch members a and b (a &lt; b) the level changed: b itself when they are adjacent,
   * else the split of a..b with the least absolute deviation from the two members' levels.
   */
  static int crossing(double[] x, int a, int b) {
    int best = b;
    double bestCost = Double.MAX_VALUE;
    for (int c = a + 1; c <= b; c++) {
      double cost = 0;
      for (int i = a; i <= b; i++) {
        cost += Math.abs(x[i] - (i < c ? x[a] : x[b]));
      }
      if (cost < bestCost - 1e-12) {
        bestCost = cost;
        best = c;
      }
    }
    return best;
  }
}
