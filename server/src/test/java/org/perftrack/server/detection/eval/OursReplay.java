package org.perftrack.server.detection.eval;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.perftrack.server.detection.BatchRun;
import org.perftrack.server.detection.Decision;
import org.perftrack.server.detection.DetectionResult;
import org.perftrack.server.detection.DetectionSettings;
import org.perftrack.server.detection.Detector;
import org.perftrack.server.detection.VersionPoint;
import org.perftrack.server.detection.RecordedRegression;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Reconciler;
import org.perftrack.server.detection.SeriesHistory;
import org.perftrack.server.detection.SeriesUpdate;

/**
 * perftrack's detector as the server runs it: upload by upload (in the machine's upload order, so
 * with backfills), all metrics of a run detected together, decisions applied to an in-memory store
 * by the reconciler. Returns the records left open at the end, per series.
 */
final class OursReplay {
  private final Detector detector = new Detector();
  private final Reconciler reconciler = new Reconciler();
  private final DetectionSettings settings;
  private final long[] nextId = {1};
  /** -Ddiag=1: prints false alerts left open and large steps missed at first upload or withdrawn. */
  private static final boolean DIAG = System.getProperty("diag") != null;
  private final Map<Long, String> created = new HashMap<>();

  /**
   * Whether the runs of a session are judged together, as the server judges a session whose runs give
   * {@code batchSize} (the agent's): held until the session's last run is uploaded, then judged in version order,
   * the session's runs not judged yet left out of the interleaved evidence. False: each run judged on arrival (a
   * client that does not give batchSize).
   */
  private final boolean sessionsTogether;

  OursReplay(DetectionSettings settings) {
    this(settings, true);
  }

  OursReplay(DetectionSettings settings, boolean sessionsTogether) {
    this.settings = settings;
    this.sessionsTogether = sessionsTogether;
  }

  /**
   * The order in which the server judges the uploads: as they arrive, except that (when sessions are judged
   * together) the runs of a session wait for its last run and are then judged in version order.
   */
  private int[] judgingOrder(Machine machine) {
    int uploads = machine.runs().isEmpty() ? machine.uploadOrder().length : machine.runs().size();
    if (!sessionsTogether || machine.runs().isEmpty()) {
      return java.util.stream.IntStream.range(0, uploads).toArray();
    }
    Map<Integer, Integer> size = new HashMap<>();
    machine.runs().forEach(r -> size.merge(r.batch(), 1, Integer::sum));
    Map<Integer, List<Integer>> waiting = new HashMap<>();
    int[] order = new int[uploads];
    int k = 0;
    for (int u = 0; u < uploads; u++) {
      int batch = machine.runs().get(u).batch();
      List<Integer> held = waiting.computeIfAbsent(batch, b -> new ArrayList<>());
      held.add(u);
      if (held.size() == size.get(batch)) {
        held.sort(java.util.Comparator.comparingInt((Integer i) -> machine.runs().get(i).version()));
        for (int i : held) {
          order[k++] = i;
        }
        waiting.remove(batch);
      }
    }
    return order;
  }

  /**
   * What the replay saw: the records open at the end, per series; how many regressions were raised
   * (created or reopened) over the whole replay, per series (what a CI pipeline would have been told);
   * and per label the number of versions at or after the step uploaded when the exact step was first
   * open (1 = on the step version's own upload), -1 if never.
   */
  record Outcome(List<List<Detected>> open, int[] raised, List<int[]> delays, List<boolean[]> withdrawn,
      Churn churn) {
  }

  /** Decisions that took back what an earlier upload said: records moved to another version, and withdrawn. */
  record Churn(int moved, int withdrawn) {
  }

  /** A step of at least this ratio (either way) is "large": it must never be withdrawn. */
  static final double LARGE = Math.log(2);

  Outcome run(Machine machine) {
    int metrics = machine.series().size();
    List<TreeMap<Integer, VersionPoint>> uploaded = new ArrayList<>();
    List<ReplayStore> stores = new ArrayList<>();
    for (int s = 0; s < metrics; s++) {
      uploaded.add(new TreeMap<>());
      stores.add(new ReplayStore(nextId));
    }
    int[] raised = new int[metrics];
    int moved = 0;
    int withdrawals = 0;
    List<int[]> delays = new ArrayList<>();
    for (LabeledSeries ls : machine.series()) {
      int[] d = new int[ls.labels().size()];
      java.util.Arrays.fill(d, -1);
      delays.add(d);
    }
    List<boolean[]> withdrawn = new ArrayList<>();
    for (LabeledSeries ls : machine.series()) {
      withdrawn.add(new boolean[ls.labels().size()]);
    }
    int[] order = judgingOrder(machine);
    for (int at = 0; at < order.length; at++) {
      int u = order[at];
      int version = machine.runs().isEmpty() ? machine.uploadOrder()[u] : machine.runs().get(u).version();
      String name = machine.versions().get(version);
      List<SeriesUpdate> updates = new ArrayList<>(metrics);
      for (int s = 0; s < metrics; s++) {
        LabeledSeries ls = machine.series().get(s);
        List<BatchRun> batch = new ArrayList<>();
        if (machine.runs().isEmpty()) {
          uploaded.get(s).put(version, VersionPoint.of(name, ls.samples()[version]));
        } else {
          VersionPoint before = uploaded.get(s).get(version);
          double[] run = ls.runSamples()[u];
          uploaded.get(s).put(version, VersionPoint.of(name, before == null ? run : concat(before.samples(), run)));
          for (int j = 0; j <= at; j++) {
            int r = order[j];
            int b = machine.runs().get(r).batch();
            {
              batch.add(new BatchRun("b" + b, machine.versions().get(machine.runs().get(r).version()),
                  ls.runSamples()[r]));
            }
          }
        }
        updates.add(new SeriesUpdate(new SeriesHistory(ls.direction(), List.copyOf(uploaded.get(s).values()), batch),
            name, settings));
      }
      List<DetectionResult> results = detector.detectRun(updates);
      for (int s = 0; s < metrics; s++) {
        ReplayStore store = stores.get(s);
        List<Decision> decisions = reconciler.reconcile(results.get(s), store.all());
        for (Decision d : decisions) {
          if (d.action() == Decision.Action.WITHDRAW) {
            markWithdrawn(machine, s, store.get(d.regressionId()), withdrawn.get(s));
            withdrawals++;
          }
          moved += d.action() == Decision.Action.REATTRIBUTE ? 1 : 0;
          if (DIAG && d.action() == Decision.Action.CREATE) {
            created.put(nextId[0], String.format(java.util.Locale.ROOT, "u%d %s->%s x%.3f p=%.2g %s", u,
                d.step().baselineVersion(), d.step().version(), d.step().ratio(), d.step().pValue(), d.step().evidence()));
          }
          if (DIAG && d.step() != null && d.action() != Decision.Action.CREATE) {
            String line = String.format(java.util.Locale.ROOT, " | u%d %s %s->%s p=%.2g %s", u, d.action(), d.step().baselineVersion(), d.step().version(),
                d.step().pValue(), d.step().evidence());
            created.computeIfPresent(d.regressionId(), (k, v) -> v + line);
          }
          if (DIAG && d.action() == Decision.Action.WITHDRAW) {
            created.computeIfPresent(d.regressionId(), (k, v) -> v + " | withdrawn: " + d.reason());
          }
          store.apply(d);
          boolean alert = d.step() != null && d.step().kind() == Regression.Kind.REGRESSION;
          raised[s] += alert && (d.action() == Decision.Action.CREATE || d.action() == Decision.Action.REOPEN) ? 1 : 0;
        }
        recordDelays(machine, s, uploaded.get(s), store, delays.get(s));
      }
    }
    if (DIAG) {
      diagnose(machine, stores, delays, withdrawn);
    }
    List<List<Detected>> out = new ArrayList<>();
    for (ReplayStore store : stores) {
      out.add(store.all().stream().filter(r -> r.status() == Regression.Status.OPEN)
          .map(r -> new Detected(machine.versions().indexOf(r.version()), r.kind(),
              machine.versions().indexOf(r.firstSuspect()), machine.versions().indexOf(r.lastSuspect()))).toList());
    }
    return new Outcome(out, raised, delays, withdrawn, new Churn(moved, withdrawals));
  }

  private void diagnose(Machine machine, List<ReplayStore> stores, List<int[]> delays,
      List<boolean[]> withdrawn) {
    for (int s = 0; s < stores.size(); s++) {
      LabeledSeries ls = machine.series().get(s);
      for (RecordedRegression r : stores.get(s).all()) {
        boolean labelled = ls.labels().stream().anyMatch(l -> machine.versions().get(l.index()).equals(r.version())
            && l.kind() == r.kind());
        if (r.status() == Regression.Status.OPEN && !labelled) {
          System.out.printf("FALSE %s %s noise=%s labels=%s: %s%n", ls.family(), r.kind(), ls.noiseOnly(), ls.labels(),
              created.get(r.id()));
          if (System.getProperty("diag.levels") != null) {
            double first = org.perftrack.server.stats.Robust.trimmedMean(ls.samples()[0]);
            StringBuilder b = new StringBuilder("   levels %:");
            for (double[] v : ls.samples()) {
              b.append(String.format(java.util.Locale.ROOT, " %.1f", 100 * (org.perftrack.server.stats.Robust.trimmedMean(v) / first - 1)));
            }
            System.out.println(b);
          }
        }
      }
      for (int l = 0; l < ls.labels().size(); l++) {
        LabeledSeries.Label label = ls.labels().get(l);
        if (Math.abs(Math.log(label.ratio())) >= LARGE && (delays.get(s)[l] != 1 || withdrawn.get(s)[l])) {
          System.out.printf("LARGE %s %s delay=%d withdrawn=%s%n", ls.family(), label, delays.get(s)[l],
              withdrawn.get(s)[l]);
          for (RecordedRegression r : stores.get(s).all()) {
            System.out.printf("   rec %s %s->%s %s: %s%n", r.status(), r.baselineVersion(), r.version(), r.kind(),
                created.get(r.id()));
          }
          for (int u = 0; u < machine.runs().size(); u++) {
            Machine.Run run = machine.runs().get(u);
            if (Math.abs(run.version() - label.index()) <= 2) {
              System.out.printf("   run u%d b%d v%d %s%n", u, run.batch(), run.version(),
                  java.util.Arrays.toString(java.util.Arrays.stream(ls.runSamples()[u])
                      .mapToObj(x -> String.format(java.util.Locale.ROOT, "%.4g", x)).toArray()));
            }
          }
        }
      }
    }
  }

  private static double[] concat(double[] a, double[] b) {
    double[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** Marks the large labels whose exact record (version and kind) is being withdrawn. */
  private static void markWithdrawn(Machine machine, int s, RecordedRegression r, boolean[] withdrawn) {
    List<LabeledSeries.Label> labels = machine.series().get(s).labels();
    for (int l = 0; l < labels.size(); l++) {
      LabeledSeries.Label label = labels.get(l);
      if (Math.abs(Math.log(label.ratio())) >= LARGE && r.kind() == label.kind()
          && machine.versions().get(label.index()).equals(r.version())) {
        withdrawn[l] = true;
      }
    }
  }

  private static void recordDelays(Machine machine, int s, TreeMap<Integer, VersionPoint> uploaded,
      ReplayStore store, int[] delays) {
    List<LabeledSeries.Label> labels = machine.series().get(s).labels();
    for (int l = 0; l < labels.size(); l++) {
      LabeledSeries.Label label = labels.get(l);
      String version = machine.versions().get(label.index());
      boolean open = store.all().stream().anyMatch(r -> r.status() == Regression.Status.OPEN
          && r.version().equals(version) && r.kind() == label.kind());
      if (delays[l] < 0 && open) {
        delays[l] = uploaded.tailMap(label.index()).size();
      }
    }
  }

}
