package org.perftrack.server.detection.eval;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.perftrack.server.changepoint.Posterior;
import org.perftrack.server.changepoint.SegmentModel;

/**
 * The change-point model and the oracle on the evaluation's series ({@link Evaluation}'s {@code --bayes}): exact and
 * range F1, small steps, false alerts per 1,000 noise-only series (also over {@code noiseSeries} extra noise-only
 * series), and calibration. Both judge each series once on its final versions (no upload-by-upload replay).
 */
final class BayesEvaluation {
  private final double claimProbability;
  private final Map<String, Score> totals = new LinkedHashMap<>();
  private final Map<String, Map<String, Score>> byFamily = new LinkedHashMap<>();
  private final Map<String, Calibration> calibration = new LinkedHashMap<>();

  private final int machineCount;
  private final int widest;
  private final boolean modelOnly;

  /**
   * {@code widest}: the most versions a claim names ({@link SegmentModel#widest}); {@code modelOnly}: without the
   * oracle.
   */
  BayesEvaluation(double claimProbability, int machineCount, int widest, boolean modelOnly) {
    this.claimProbability = claimProbability;
    this.machineCount = machineCount;
    this.widest = widest;
    this.modelOnly = modelOnly;
  }

  void run(List<Long> seeds, double minSnr, int noiseSeries, PrintStream out) {
    List<BayesMethod> methods = modelOnly ? List.of(BayesMethod.model(claimProbability, widest))
        : List.of(BayesMethod.model(claimProbability, widest), BayesMethod.oracle(claimProbability, widest));
    out.printf(Locale.ROOT, "%-6s %-18s %9s %7s %6s %9s %9s %8s %9s%n", "seed", "method", "precision", "recall",
        "F1", "alerts/1k", "steps/1k", "range-F1", "ms");
    for (long seed : seeds) {
      List<Machine> machines = new SeriesGenerator(seed, minSnr).machines(machineCount, Evaluation.METRICS);
      for (BayesMethod method : methods) {
        long start = System.nanoTime();
        Score score = new Score();
        for (Machine m : machines) {
          for (LabeledSeries s : m.series()) {
            Posterior p = method.judge(s);
            List<Detected> found = BayesMethod.detected(s, p.claimed());
            score.add(s, found);
            byFamily.computeIfAbsent(method.name(), n -> new TreeMap<>())
                .computeIfAbsent(s.family(), f -> new Score()).add(s, found);
            calibration.computeIfAbsent(method.name(), n -> new Calibration()).add(s, p.claims());
          }
        }
        row(out, String.valueOf(seed), method.name(), score, (System.nanoTime() - start) / 1_000_000);
        totals.computeIfAbsent(method.name(), n -> new Score()).merge(score);
      }
    }
    out.println("model and oracle, pooled over seeds:");
    totals.forEach((name, s) -> row(out, "all", name, s, 0));
    out.println("range scoring (a hit: a labeled step of the kind within the claim's versions), pooled:");
    totals.forEach((name, s) -> rangeRow(out, "all", name, s));
    out.println("by noise family, exact F1 / range F1 (range recall):");
    byFamily.get("model").keySet().forEach(family -> {
      StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "       %-24s", family));
      byFamily.forEach((name, fams) -> {
        Score s = fams.get(family);
        line.append(String.format(Locale.ROOT, "  %s %.4f / %.4f (%.4f)", name, s.f1(), s.rangeF1(), s.rangeRecall()));
      });
      out.println(line);
    });
    byFamily.forEach((name, fams) -> {
      Score small = new Score();
      fams.forEach((family, s) -> {
        if (family.startsWith("SMALL_STEPS")) {
          small.merge(s);
        }
      });
      out.printf(Locale.ROOT, "small steps (both families), %-6s: exact recall %.4f, range recall %.4f (range"
          + " precision %.4f)%n", name, small.recall(), small.rangeRecall(), small.rangePrecision());
    });
    out.println("calibration: every candidate's probability against the share whose versions hold a labeled step:");
    calibration.forEach((name, c) -> c.print(out, name));
    if (noiseSeries > 0) {
      noiseOnly(methods, seeds.get(0), minSnr, noiseSeries, out);
    }
  }

  private static void noiseOnly(List<BayesMethod> methods, long seed, double minSnr, int count, PrintStream out) {
    int perMachine = Evaluation.METRICS;
    List<Machine> machines = new SeriesGenerator(1_000_000 + seed, minSnr, true)
        .machines((count + perMachine - 1) / perMachine, perMachine);
    for (BayesMethod method : methods) {
      int series = 0;
      int regressions = 0;
      int claims = 0;
      for (Machine m : machines) {
        for (LabeledSeries s : m.series()) {
          List<Detected> found = BayesMethod.detected(s, method.judge(s).claimed());
          series++;
          claims += found.size();
          regressions += (int) found.stream().filter(d -> d.kind() == org.perftrack.server.detection.Regression.Kind
              .REGRESSION).count();
        }
      }
      out.printf(Locale.ROOT, "noise-only series (seed %d): %-6s %d series, false regressions %.2f per 1,000, false"
          + " steps of either kind %.2f per 1,000%n", 1_000_000 + seed, method.name(), series,
          1000.0 * regressions / series, 1000.0 * claims / series);
    }
  }

  private static void row(PrintStream out, String seed, String name, Score s, long ms) {
    out.printf(Locale.ROOT, "%-6s %-18s %9.4f %7.4f %6.4f %9.1f %9.1f %8.4f %9d%n", seed, name, s.precision(),
        s.recall(), s.f1(), s.falseAlertsPerThousand(), s.falseStepsPerThousand(), s.rangeF1(), ms);
  }

  private static void rangeRow(PrintStream out, String seed, String name, Score s) {
    out.printf(Locale.ROOT, "%-6s %-18s %9.4f %7.4f %6.4f  width %s%n", seed, name, s.rangePrecision(),
        s.rangeRecall(), s.rangeF1(), s.widthCounts());
  }
}
