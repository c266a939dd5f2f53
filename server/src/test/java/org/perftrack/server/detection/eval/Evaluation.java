package org.perftrack.server.detection.eval;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.perftrack.server.detection.DetectionSettings;

/**
 * The labeled evaluation: perftrack's detector (replayed upload by upload with reconciliation)
 * against reimplementations of Perfherder and Otava on the same generated series, several seeds.
 * Run (from the repository root), see {@code README.md} next to this class:
 * <pre>
 * bench/run-main.sh org.perftrack.server.detection.eval.Evaluation 1 2 3 4 5 6
 * </pre>
 * Arguments are seeds; {@code --min-snr X} sets the smallest injected step in units of per-version
 * noise (default 3; 0 = any size 2 %..300 %), {@code --families} adds a per-family breakdown; {@code --bayes} adds
 * the change-point model and the oracle ({@link BayesEvaluation}), {@code --bayes-only} runs only those,
 * {@code --model-only} only the model (the oracle's figures do not depend on the model's drift prior),
 * {@code --noise-series N} adds N noise-only series for their false alerts, {@code --claim P} the claim probability,
 * {@code --machines M} fewer machines for them (a quick look while tuning), {@code --widest W} the most versions
 * their claims name (4); {@code --lab confirm} runs only {@link LabConfirmEvaluation} (a simulated lab answering
 * confirm jobs).
 */
public final class Evaluation {
  static final int MACHINES = 40;
  static final int METRICS = 50;

  public static void main(String[] args) {
    if (List.of(args).contains("--lab")) {
      LabConfirmEvaluation.main(args, System.out);
      return;
    }
    List<Long> seeds = new ArrayList<>();
    double minSnr = 3;
    boolean families = false;
    boolean loaded = false;
    boolean bayes = false;
    boolean bayesOnly = false;
    boolean modelOnly = false;
    int noiseSeries = 0;
    int machines = MACHINES;
    int widest = 4;
    double claim = org.perftrack.server.changepoint.SegmentModel.CLAIM_PROBABILITY;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--min-snr" -> minSnr = Double.parseDouble(args[++i]);
        case "--bayes" -> bayes = true;
        case "--bayes-only" -> bayesOnly = true;
        case "--model-only" -> modelOnly = bayesOnly = true;
        case "--noise-series" -> noiseSeries = Integer.parseInt(args[++i]);
        case "--claim" -> claim = Double.parseDouble(args[++i]);
        case "--machines" -> machines = Integer.parseInt(args[++i]);
        case "--widest" -> widest = Integer.parseInt(args[++i]);
        case "--families" -> families = true;
        case "--loaded" -> loaded = true;
        default -> seeds.add(Long.parseLong(args[i]));
      }
    }
    if (seeds.isEmpty()) {
      seeds = List.of(1L, 2L, 3L);
    }
    if (!bayesOnly) {
      new Evaluation().run(seeds, minSnr, families, loaded, System.out);
    }
    if (bayes || bayesOnly) {
      new BayesEvaluation(claim, machines, widest, modelOnly).run(seeds, minSnr, noiseSeries, System.out);
    }
  }

  void run(List<Long> seeds, double minSnr, boolean families, boolean loaded, PrintStream out) {
    List<OfflineMethod> field = List.of(new PerfherderMethod("perfherder", 12, 12),
        new PerfherderMethod("perfherder-5/5*", 5, 5), new OtavaMethod(0.001));
    Map<String, Score> totals = new LinkedHashMap<>();
    Map<String, Score> byFamily = new TreeMap<>();
    long[] inOrder = new long[3];
    long[] outOfOrder = new long[3];
    long[] outOfOrderOnArrival = new long[3];
    SmallStepOracle oracle = new SmallStepOracle();
    if (loaded) {
      out.printf(Locale.ROOT, "loaded lab: %d machines x %d metrics x %d versions, interleaved sessions of 2-4"
          + " versions x %d rounds, session CV 15-40 %%, steps x1.1..x50%n", MACHINES, METRICS,
          LoadedLabGenerator.VERSIONS, LoadedLabGenerator.ROUNDS);
    } else {
      out.printf(Locale.ROOT, "%d machines x %d metrics x %d versions x %d samples per seed, min step %.1f x noise%n",
          MACHINES, METRICS, SeriesGenerator.VERSIONS, SeriesGenerator.SAMPLES, minSnr);
    }
    out.printf(Locale.ROOT, "%-6s %-18s %9s %7s %6s %9s %9s %8s %9s %5s %7s%n", "seed", "method", "precision",
        "recall", "F1", "alerts/1k", "steps/1k", "off-by-1", "raised/1k", "delay", "ms");
    for (long seed : seeds) {
      List<Machine> machines = loaded ? new LoadedLabGenerator(seed).machines(MACHINES, METRICS)
          : new SeriesGenerator(seed, minSnr).machines(MACHINES, METRICS);
      long start = System.nanoTime();
      Score ours = new Score();
      for (Machine m : machines) {
        OursReplay.Outcome outcome = new OursReplay(DetectionSettings.DEFAULTS).run(m);
        inOrder[0] += outcome.churn().moved();
        inOrder[1] += outcome.churn().withdrawn();
        inOrder[2] += m.series().size();
        List<List<Detected>> found = outcome.open();
        for (int s = 0; s < m.series().size(); s++) {
          ours.add(m.series().get(s), found.get(s));
          ours.addReplay(m.series().get(s), outcome.raised()[s], outcome.delays().get(s),
              outcome.withdrawn().get(s));
          if (families) {
            Score family = byFamily.computeIfAbsent(m.series().get(s).family(), f -> new Score());
            family.add(m.series().get(s), found.get(s));
            family.addReplay(m.series().get(s), outcome.raised()[s], outcome.delays().get(s),
                outcome.withdrawn().get(s));
            if (Score.MISSED) {
              Score.missed(m.series().get(s), found.get(s));
            }
            oracle.add(m.series().get(s));
          }
        }
      }
      if (loaded && families) {
        sessionsOutOfOrder(machines, outOfOrder, byFamily, SESSIONS_OUT_OF_ORDER, true);
        sessionsOutOfOrder(machines, outOfOrderOnArrival, byFamily, SESSIONS_OUT_OF_ORDER_ON_ARRIVAL, false);
      }
      print(out, seed, "perftrack", ours, start, totals);
      for (OfflineMethod method : field) {
        start = System.nanoTime();
        Score score = new Score();
        for (Machine m : machines) {
          m.series().forEach(s -> score.add(s, method.detect(s)));
        }
        print(out, seed, method.name(), score, start, totals);
      }
    }
    out.println("mean over seeds (pooled counts):");
    totals.forEach((name, s) -> row(out, "all", name, s, 0));
    if (families) {
      out.println("perftrack by noise family (pooled):");
      byFamily.forEach((name, s) -> row(out, "", name, s, 0));
      if (loaded) {
        // not noise families: every family's series again, so their counts are those of the whole lab
        out.printf(Locale.ROOT, "%s and %s are the whole lab (all families) replayed with each session newest first;"
            + " judged together, the scores are %s the in-order replay's (the perftrack rows above)%n",
            SESSIONS_OUT_OF_ORDER, SESSIONS_OUT_OF_ORDER_ON_ARRIVAL,
            byFamily.get(SESSIONS_OUT_OF_ORDER).sameCounts(all(totals)) ? "the same as" : "not the same as");
      }
      out.println("perftrack by noise family: steps, found at their version, false (off by one version of a step)");
      byFamily.forEach((name, s) -> out.printf(Locale.ROOT, "       %-24s %5d %5d %5d (%d)%n", name, s.labels,
          s.truePositives, s.falsePositives, s.offByOne));
      Score small = new Score();
      byFamily.forEach((name, s) -> {
        if (name.startsWith("SMALL_STEPS")) {
          small.merge(s);
        }
      });
      row(out, "", "SMALL_STEPS (both)", small, 0);
      out.printf(Locale.ROOT, "perftrack, all families: %d steps, %d found at their version, %d false%n",
          all(totals).labels,
          all(totals).truePositives, all(totals).falsePositives);
    }
    out.println("range scoring (pooled): a hit when a labeled step of the kind lies within the reported versions;"
        + " a range with none is a false step. width: claims by number of suspect versions");
    totals.forEach((name, s) -> rangeRow(out, "all", name, s));
    if (families) {
      Score small = new Score();
      byFamily.forEach((name, s) -> {
        rangeRow(out, "", name, s);
        if (name.startsWith("SMALL_STEPS")) {
          small.merge(s);
        }
      });
      rangeRow(out, "", "SMALL_STEPS (both)", small);
      if (!loaded) {
        oracle.print(out);
      }
    }
    Score all = totals.get("perftrack");
    out.printf(Locale.ROOT, "perftrack, true steps >= x2: %d; ever withdrawn: %d; found at the first upload"
        + " containing them: %d (%.2f %%)%n", all.largeSteps, all.largeWithdrawn, all.largeAtFirstUpload,
        100.0 * all.largeAtFirstUpload / Math.max(1, all.largeSteps));
    if (families) {
      byFamily.forEach((name, s) -> out.printf(Locale.ROOT, "  %-18s >= x2: %5d, withdrawn %d, at first upload"
          + " %.2f %%%n", name, s.largeSteps, s.largeWithdrawn, 100.0 * s.largeAtFirstUpload / Math.max(1, s.largeSteps)));
    }
    if (!loaded) {
      out.printf(Locale.ROOT, "perftrack's changes of mind: %.1f records moved to another version and %.1f withdrawn"
          + " per 1,000 series%n", 1000.0 * inOrder[0] / Math.max(1, inOrder[2]),
          1000.0 * inOrder[1] / Math.max(1, inOrder[2]));
    }
    if (loaded && families) {
      out.printf(Locale.ROOT, "sessions in version order (as the agent sends them): %.1f records moved and %.1f"
          + " withdrawn per 1,000 series; uploaded out of order (each session newest first) with batchSize, judged"
          + " together (family %s): %.1f moved and %.1f withdrawn; without batchSize, each run judged on arrival"
          + " (family %s): %.1f moved and %.1f withdrawn%n", 1000.0 * inOrder[0] / inOrder[2],
          1000.0 * inOrder[1] / inOrder[2], SESSIONS_OUT_OF_ORDER, 1000.0 * outOfOrder[0] / Math.max(1, outOfOrder[2]),
          1000.0 * outOfOrder[1] / Math.max(1, outOfOrder[2]), SESSIONS_OUT_OF_ORDER_ON_ARRIVAL,
          1000.0 * outOfOrderOnArrival[0] / Math.max(1, outOfOrderOnArrival[2]),
          1000.0 * outOfOrderOnArrival[1] / Math.max(1, outOfOrderOnArrival[2]));
    }
    out.println("alerts/1k: false regressions open at the end per 1,000 noise-only series; steps/1k: false steps of"
        + " either kind; raised/1k: regressions raised at any upload in noise-only series (later withdrawn or not);"
        + " delay: median versions from the step on uploaded when it was first flagged at the exact version.");
    out.println("* perfherder-5/5 is not Perfherder's configuration: 5-value windows, shown for fairness at 30 versions.");
  }

  /** The family of the loaded lab replayed with each session's runs uploaded newest first, giving batchSize. */
  static final String SESSIONS_OUT_OF_ORDER = "SESSIONS_OUT_OF_ORDER";
  /** The same uploads without batchSize: each run judged on arrival. */
  static final String SESSIONS_OUT_OF_ORDER_ON_ARRIVAL = "SESSIONS_OUT_OF_ORDER_ON_ARRIVAL";

  /**
   * The loaded lab's machines again, each session's runs uploaded in reverse (the newest version first, as a client
   * other than the agent may send them), scored as one family; its moved and withdrawn records are counted.
   * {@code together}: the session's runs are judged together once its last run is uploaded (they give batchSize).
   */
  private static void sessionsOutOfOrder(List<Machine> machines, long[] outOfOrder, Map<String, Score> byFamily,
      String name, boolean together) {
    Score family = byFamily.computeIfAbsent(name, f -> new Score());
    for (Machine m : machines) {
      Machine reversed = newestFirst(m);
      OursReplay.Outcome outcome = new OursReplay(DetectionSettings.DEFAULTS, together).run(reversed);
      outOfOrder[0] += outcome.churn().moved();
      outOfOrder[1] += outcome.churn().withdrawn();
      outOfOrder[2] += m.series().size();
      for (int s = 0; s < reversed.series().size(); s++) {
        family.add(reversed.series().get(s), outcome.open().get(s));
        family.addReplay(reversed.series().get(s), outcome.raised()[s], outcome.delays().get(s),
            outcome.withdrawn().get(s));
      }
    }
  }

  /** The machine with the runs of each session in reverse order (and each series' run samples with them). */
  static Machine newestFirst(Machine m) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < m.runs().size(); ) {
      int j = i;
      while (j < m.runs().size() && m.runs().get(j).batch() == m.runs().get(i).batch()) {
        j++;
      }
      for (int k = j - 1; k >= i; k--) {
        order.add(k);
      }
      i = j;
    }
    List<Machine.Run> runs = order.stream().map(m.runs()::get).toList();
    List<LabeledSeries> series = new ArrayList<>();
    for (LabeledSeries ls : m.series()) {
      double[][] runSamples = order.stream().map(u -> ls.runSamples()[u]).toArray(double[][]::new);
      series.add(new LabeledSeries(ls.family(), ls.direction(), ls.samples(), ls.labels(), runSamples));
    }
    return new Machine(m.versions(), m.uploadOrder(), series, runs);
  }

  private static Score all(Map<String, Score> totals) {
    return totals.get("perftrack");
  }

  private static void print(PrintStream out, long seed, String name, Score s, long start, Map<String, Score> totals) {
    row(out, String.valueOf(seed), name, s, (System.nanoTime() - start) / 1_000_000);
    totals.computeIfAbsent(name, n -> new Score()).merge(s);
  }

  private static void rangeRow(PrintStream out, String seed, String name, Score s) {
    out.printf(Locale.ROOT, "%-6s %-18s %9.4f %7.4f %6.4f  width %s%n", seed, name, s.rangePrecision(),
        s.rangeRecall(), s.rangeF1(), s.widthCounts());
  }

  private static void row(PrintStream out, String seed, String name, Score s, long ms) {
    boolean replayed = !s.delays.isEmpty();
    out.printf(Locale.ROOT, "%-6s %-18s %9.4f %7.4f %6.4f %9.1f %9.1f %8d %9s %5s %7d%n", seed, name, s.precision(),
        s.recall(), s.f1(), s.falseAlertsPerThousand(), s.falseStepsPerThousand(), s.offByOne,
        replayed ? String.format(Locale.ROOT, "%.1f", s.raisedPerThousand()) : "-", s.medianDelay(), ms);
  }
}
