package org.perftrack.server.detection.eval;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.perftrack.server.detection.Decision;
import org.perftrack.server.detection.DetectionResult;
import org.perftrack.server.detection.DetectionSettings;
import org.perftrack.server.detection.Detector;
import org.perftrack.server.detection.Point;
import org.perftrack.server.detection.RecordedRegression;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Reconciler;
import org.perftrack.server.detection.Series;
import org.perftrack.server.detection.SeriesUpdate;
import org.perftrack.server.detection.Step;

/**
 * perftrack's detector as the server runs it: upload by upload (in the machine's upload order, so
 * with backfills), all metrics of a run detected together, decisions applied to an in-memory store
 * by the reconciler. Returns the records left open at the end, per series.
 */
final class OursReplay {
  private final Detector detector = new Detector();
  private final Reconciler reconciler = new Reconciler();
  private final DetectionSettings settings;
  private long nextId = 1;

  OursReplay(DetectionSettings settings) {
    this.settings = settings;
  }

  /**
   * What the replay saw: the records open at the end, per series; how many regressions were raised
   * (created or reopened) over the whole replay, per series (what a CI pipeline would have been told);
   * and per label the number of versions at or after the step uploaded when the exact step was first
   * open (1 = on the step version's own upload), -1 if never.
   */
  record Outcome(List<List<Detected>> open, int[] raised, List<int[]> delays) {
  }

  Outcome run(Machine machine) {
    int metrics = machine.series().size();
    List<TreeMap<Integer, Point>> uploaded = new ArrayList<>();
    List<Map<Long, RecordedRegression>> stores = new ArrayList<>();
    for (int s = 0; s < metrics; s++) {
      uploaded.add(new TreeMap<>());
      stores.add(new HashMap<>());
    }
    int[] raised = new int[metrics];
    List<int[]> delays = new ArrayList<>();
    for (LabeledSeries ls : machine.series()) {
      int[] d = new int[ls.labels().size()];
      java.util.Arrays.fill(d, -1);
      delays.add(d);
    }
    for (int version : machine.uploadOrder()) {
      String name = machine.versions().get(version);
      List<SeriesUpdate> updates = new ArrayList<>(metrics);
      for (int s = 0; s < metrics; s++) {
        LabeledSeries ls = machine.series().get(s);
        uploaded.get(s).put(version, Point.of(name, ls.samples()[version]));
        updates.add(new SeriesUpdate(new Series(ls.direction(), List.copyOf(uploaded.get(s).values())),
            name, settings));
      }
      List<DetectionResult> results = detector.detectRun(updates);
      for (int s = 0; s < metrics; s++) {
        Map<Long, RecordedRegression> store = stores.get(s);
        List<Decision> decisions = reconciler.reconcile(results.get(s), List.copyOf(store.values()));
        for (Decision d : decisions) {
          apply(d, store);
          boolean alert = d.step() != null && d.step().kind() == Regression.Kind.REGRESSION;
          raised[s] += alert && (d.action() == Decision.Action.CREATE || d.action() == Decision.Action.REOPEN) ? 1 : 0;
        }
        recordDelays(machine, s, uploaded.get(s), store, delays.get(s));
      }
    }
    List<List<Detected>> out = new ArrayList<>();
    for (Map<Long, RecordedRegression> store : stores) {
      out.add(store.values().stream().filter(r -> r.status() == Regression.Status.OPEN)
          .map(r -> new Detected(machine.versions().indexOf(r.version()), r.kind())).toList());
    }
    return new Outcome(out, raised, delays);
  }

  private static void recordDelays(Machine machine, int s, TreeMap<Integer, Point> uploaded,
      Map<Long, RecordedRegression> store, int[] delays) {
    List<LabeledSeries.Label> labels = machine.series().get(s).labels();
    for (int l = 0; l < labels.size(); l++) {
      LabeledSeries.Label label = labels.get(l);
      String version = machine.versions().get(label.index());
      boolean open = store.values().stream().anyMatch(r -> r.status() == Regression.Status.OPEN
          && r.version().equals(version) && r.kind() == label.kind());
      if (delays[l] < 0 && open) {
        delays[l] = uploaded.tailMap(label.index()).size();
      }
    }
  }

  private void apply(Decision d, Map<Long, RecordedRegression> store) {
    switch (d.action()) {
      case CREATE -> store.put(nextId, record(nextId++, d.step(), Regression.Status.OPEN));
      case CONFIRM, REATTRIBUTE -> store.put(d.regressionId(),
          record(d.regressionId(), d.step(), store.get(d.regressionId()).status()));
      case REOPEN -> store.put(d.regressionId(), record(d.regressionId(), d.step(), Regression.Status.OPEN));
      case WITHDRAW -> {
        RecordedRegression r = store.get(d.regressionId());
        store.put(r.id(), new RecordedRegression(r.id(), r.baselineVersion(), r.version(),
            r.baselineValue(), r.value(), r.kind(), Regression.Status.WITHDRAWN));
      }
    }
  }

  private static RecordedRegression record(long id, Step s, Regression.Status status) {
    return new RecordedRegression(id, s.baselineVersion(), s.version(), s.baselineValue(), s.value(), s.kind(), status);
  }
}
