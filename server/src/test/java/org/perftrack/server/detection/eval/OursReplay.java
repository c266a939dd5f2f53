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
import org.perftrack.server.detection.RegressionStatus;
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

  List<List<Detected>> run(Machine machine) {
    int metrics = machine.series().size();
    List<TreeMap<Integer, Point>> uploaded = new ArrayList<>();
    List<Map<Long, RecordedRegression>> stores = new ArrayList<>();
    for (int s = 0; s < metrics; s++) {
      uploaded.add(new TreeMap<>());
      stores.add(new HashMap<>());
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
        decisions.forEach(d -> apply(d, store));
      }
    }
    List<List<Detected>> out = new ArrayList<>();
    for (Map<Long, RecordedRegression> store : stores) {
      out.add(store.values().stream().filter(r -> r.status() == RegressionStatus.OPEN)
          .map(r -> new Detected(machine.versions().indexOf(r.version()), r.kind())).toList());
    }
    return out;
  }

  private void apply(Decision d, Map<Long, RecordedRegression> store) {
    switch (d.action()) {
      case CREATE -> store.put(nextId, record(nextId++, d.step(), RegressionStatus.OPEN));
      case CONFIRM, REATTRIBUTE -> store.put(d.regressionId(),
          record(d.regressionId(), d.step(), store.get(d.regressionId()).status()));
      case REOPEN -> store.put(d.regressionId(), record(d.regressionId(), d.step(), RegressionStatus.OPEN));
      case WITHDRAW -> {
        RecordedRegression r = store.get(d.regressionId());
        store.put(r.id(), new RecordedRegression(r.id(), r.baselineVersion(), r.version(),
            r.baselineValue(), r.value(), r.kind(), RegressionStatus.WITHDRAWN));
      }
    }
  }

  private static RecordedRegression record(long id, Step s, RegressionStatus status) {
    return new RecordedRegression(id, s.baselineVersion(), s.version(), s.baselineValue(), s.value(), s.kind(), status);
  }
}
