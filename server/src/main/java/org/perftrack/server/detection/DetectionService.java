package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * Decides, after each stored run, which series stepped: loads the window around the run's version
 * for every series it touched, detects over all of its primary series at once (so the false-alarm
 * control sees the whole run), reconciles with the stored regressions and writes the decisions back.
 * Secondary metrics (context switches, CPU times) are loaded only to give hints on the primary
 * metric's regression: judged on their own, one slowdown would raise several alarms.
 */
@Service
public class DetectionService {

  private final WindowQueries windows;
  private final RegressionStore store;
  private final Regressions queries;
  private final BenchmarkSettings settings;
  private final DetectionProperties properties;
  private final Detector detector = new Detector();
  private final Reconciler reconciler = new Reconciler();

  DetectionService(WindowQueries windows, RegressionStore store, Regressions queries,
      BenchmarkSettings settings, DetectionProperties properties) {
    this.windows = windows;
    this.store = store;
    this.queries = queries;
    this.settings = settings;
    this.properties = properties;
  }

  /** Called inside the ingest transaction; returns the regressions this run created. */
  public List<Regression> onRunStored(StoredRun run) {
    if (run.seriesIds().isEmpty()) {
      return List.of();
    }
    windows.lockSeries(run.seriesIds());
    windows.addPoints(run.seriesIds(), run.versionId());
    int side = 2 * DetectionSettings.DEFAULTS.window();
    List<SeriesWindow> loaded = List.copyOf(windows.windows(run.seriesIds(), run.versionId(), side).values());
    Map<String, BenchmarkSettings.Setting> knobs = settings.forProduct(run.productId());
    List<SeriesWindow> primary = loaded.stream().filter(w -> !properties.isSecondary(w.metric())).toList();
    List<SeriesUpdate> updates = primary.stream().map(w -> new SeriesUpdate(w.series(), changedVersion(w, run),
        settingsFor(knobs, w.benchmark()))).toList();
    List<DetectionResult> results = detector.detectRun(updates);
    Map<Long, DetectionResult> judged = new HashMap<>();
    for (int i = 0; i < primary.size(); i++) {
      judged.put(primary.get(i).seriesId(), results.get(i));
    }
    List<Long> raised = reconcile(loaded, judged, run.runId());
    return queries.byIds(raised);
  }

  /**
   * Re-judges the stored records of every judged (primary) series and withdraws any open record of a
   * secondary one (raised before it was configured secondary); returns the regressions this run raised.
   */
  private List<Long> reconcile(List<SeriesWindow> loaded, Map<Long, DetectionResult> judged, UUID runId) {
    Set<Long> versionIds = new HashSet<>();
    loaded.forEach(w -> versionIds.addAll(w.versionIds().values()));
    Map<Long, List<RecordedRegression>> recorded =
        store.recorded(loaded.stream().map(SeriesWindow::seriesId).toList(), List.copyOf(versionIds));
    List<Long> raised = new ArrayList<>();
    RegressionStore.Updates writes = store.updates();
    for (SeriesWindow w : loaded) {
      List<RecordedRegression> stored = recorded.getOrDefault(w.seriesId(), List.of());
      DetectionResult result = judged.get(w.seriesId());
      List<Decision> decisions = result == null ? withdrawSecondary(stored) : reconciler.reconcile(result, stored);
      for (Decision d : decisions) {
        Long id = store.apply(d, w, d.step() == null ? List.of() : hints(w, d.step(), loaded), runId, writes);
        if (id != null && d.step().kind() == Regression.Kind.REGRESSION) {
          raised.add(id);
        }
      }
    }
    writes.flush();
    return raised;
  }

  private static List<Decision> withdrawSecondary(List<RecordedRegression> stored) {
    return stored.stream().filter(r -> r.status() == Regression.Status.OPEN)
        .map(r -> Decision.withdraw(r.id(), "secondary metric: shown as a hint on its benchmark's regression"))
        .toList();
  }

  /** The regressions a run created when it was first stored (for an idempotent re-send). */
  public List<Regression> createdBy(UUID runId) {
    return queries.createdBy(runId);
  }

  private static String changedVersion(SeriesWindow w, StoredRun run) {
    return w.versionIds().entrySet().stream().filter(e -> e.getValue() == run.versionId())
        .map(Map.Entry::getKey).findFirst().orElseThrow();
  }

  private static DetectionSettings settingsFor(Map<String, BenchmarkSettings.Setting> knobs, String benchmark) {
    BenchmarkSettings.Setting s = knobs.get(benchmark);
    return s == null ? DetectionSettings.DEFAULTS : s.apply(DetectionSettings.DEFAULTS);
  }

  /** The other metrics of the same benchmark in this run, across the step's version pair. */
  private static List<Regression.Hint> hints(SeriesWindow w, Step step, List<SeriesWindow> all) {
    return all.stream().filter(o -> o != w && o.benchmark().equals(w.benchmark()))
        .map(o -> Regression.Hint.of(o, step.baselineVersion(), step.version())).filter(Objects::nonNull).toList();
  }
}
