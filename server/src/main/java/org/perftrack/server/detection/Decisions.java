package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;

/**
 * The decisions after a run's windows are read, for the upload path ({@link DetectionService}) and import judging
 * ({@link ImportJudging}) alike: detects over all of a run's primary series at once (so the false-alarm control sees
 * the whole run), reconciles with the stored regressions and writes the decisions back. Secondary metrics (context
 * switches, CPU times) only give hints on the primary metric's regression: judged on their own, one slowdown would
 * raise several alarms.
 */
@Component
class Decisions {
  private final KnownNames knownNames;
  private final BatchRunReads batches;
  private final RegressionStore store;
  private final DetectionProperties properties;
  private final Detector detector = new Detector();
  private final Reconciler reconciler = new Reconciler();

  Decisions(KnownNames knownNames, BatchRunReads batches, RegressionStore store, DetectionProperties properties) {
    this.knownNames = knownNames;
    this.batches = batches;
    this.store = store;
    this.properties = properties;
  }

  /**
   * Detects over the loaded windows of one run, reconciles and writes; returns the ids of what it raised.
   * {@code withSteps}: see {@link #reconcile}; {@code firstPass}: the detector's results on the windows without
   * interleaved runs, when already computed ({@link #firstPass}); {@code curation}: the change of data a person made
   * ({@link CuratedDecisions}); {@code waiting}, when given, gains the changes that wait for one more build.
   */
  List<Long> judge(StoredRun run, List<SeriesWindow> loaded, Map<String, BenchmarkSettings.Setting> knobs,
      Set<Long> withSteps, List<DetectionResult> firstPass, String curation, List<WaitingChange> waiting,
      BatchRunReads.Kept kept) {
    List<SeriesWindow> primary = primary(loaded);
    DetectionSettings defaults = properties.defaults();
    List<Long> primaryIds = primary.stream().map(SeriesWindow::seriesId).toList();
    List<Long> inWindows = primary.stream().flatMap(w -> w.versionIds().values().stream()).distinct().toList();
    Map<Long, List<BatchRun>> batchRuns = batches.batchRuns(primaryIds, run.batch(), inWindows, run.productId(),
        run.batch() == null ? null : knownNames.version(run.versionId()).sortKey(), 2 * properties.window());
    List<DetectionResult> results = firstPass != null && batchRuns.isEmpty() ? firstPass
        : detector.detectRun(updates(primary, batchRuns, run, null, knobs, defaults));
    List<Long> stepped = new ArrayList<>();
    Set<Long> windowVersions = new HashSet<>();
    for (int i = 0; i < primary.size(); i++) {
      if (!results.get(i).steps().isEmpty()) {
        stepped.add(primary.get(i).seriesId());
        windowVersions.addAll(primary.get(i).versionIds().values());
      }
    }
    if (!stepped.isEmpty()) {
      List<Long> versionsOfSteps = List.copyOf(windowVersions);
      batchRuns.putAll(kept == null ? batches.batchRuns(stepped, versionsOfSteps)
          : kept.batchRuns(stepped, versionsOfSteps));
      results = detector.detectRun(updates(primary, batchRuns, run, null, knobs, defaults));
    }
    Map<Long, DetectionResult> judged = new HashMap<>();
    for (int i = 0; i < primary.size(); i++) {
      judged.put(primary.get(i).seriesId(), results.get(i));
      for (Step change : waiting == null ? List.<Step>of() : results.get(i).waiting()) {
        waiting.add(WaitingChange.of(primary.get(i), change));
      }
    }
    return reconcile(loaded, judged, run.runId(), withSteps, curation);
  }

  /** The detector's results on a run's windows without interleaved runs (pure: any thread may compute them). */
  List<DetectionResult> firstPass(List<SeriesWindow> loaded, StoredRun run, String changedName,
      Map<String, BenchmarkSettings.Setting> knobs) {
    return detector.detectRun(updates(primary(loaded), Map.of(), run, changedName, knobs, properties.defaults()));
  }

  private List<SeriesWindow> primary(List<SeriesWindow> loaded) {
    return loaded.stream().filter(w -> !properties.isSecondary(w.metric())).toList();
  }

  /**
   * What the detector judges: each primary series with the interleaved runs loaded for it. First only the
   * runs of this upload's own session; when a series shows a step, every interleaved run of its window,
   * so that steps the levels suggest between other sessions are confirmed or vetoed by the pairs.
   */
  private static List<SeriesUpdate> updates(List<SeriesWindow> primary, Map<Long, List<BatchRun>> batchRuns,
      StoredRun run, String changedName, Map<String, BenchmarkSettings.Setting> knobs, DetectionSettings defaults) {
    List<SeriesUpdate> updates = new ArrayList<>(primary.size());
    for (SeriesWindow w : primary) {
      updates.add(new SeriesUpdate(w.series(batchRuns.getOrDefault(w.seriesId(), List.of())),
          changedName != null ? changedName : changedVersion(w, run), settingsFor(knobs, w.benchmark(), defaults)));
    }
    return updates;
  }

  /**
   * Re-judges the stored records of every judged (primary) series and withdraws any open record of a
   * secondary one (raised before it was configured secondary); returns the regressions this run raised.
   * {@code withSteps}, when given, holds every series of {@code loaded} that has stored steps (an import keeps it
   * up to date, adding the series it creates steps for), so the others' steps are not looked for.
   */
  private List<Long> reconcile(List<SeriesWindow> loaded, Map<Long, DetectionResult> judged, UUID runId,
      Set<Long> withSteps, String curation) {
    Set<Long> versionIds = new HashSet<>();
    List<Long> look = new ArrayList<>(loaded.size());
    for (SeriesWindow w : loaded) {
      if (withSteps == null || withSteps.contains(w.seriesId())) {
        versionIds.addAll(w.versionIds().values());
        look.add(w.seriesId());
      }
    }
    Map<Long, List<RecordedRegression>> recorded =
        look.isEmpty() ? Map.of() : store.recorded(look, List.copyOf(versionIds));
    List<Long> raised = new ArrayList<>();
    RegressionStore.Updates writes = store.updates();
    for (SeriesWindow w : loaded) {
      List<RecordedRegression> stored = recorded.getOrDefault(w.seriesId(), List.of());
      DetectionResult result = judged.get(w.seriesId());
      List<Decision> decisions = result == null ? withdrawSecondary(stored) : reconciler.reconcile(result, stored, w.unit());
      if (curation != null && result != null) {
        decisions = CuratedDecisions.of(decisions, result, stored, curation);
      }
      if (withSteps != null && !decisions.isEmpty()) {
        withSteps.add(w.seriesId());
      }
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

  private static String changedVersion(SeriesWindow w, StoredRun run) {
    // a loop, not a stream: an import asks this for each of its 100,000 (series, version) pairs
    for (Map.Entry<String, Long> e : w.versionIds().entrySet()) {
      if (e.getValue() == run.versionId()) {
        return e.getKey();
      }
    }
    throw new java.util.NoSuchElementException("version " + run.versionId() + " is not in the window");
  }

  static DetectionSettings settingsFor(Map<String, BenchmarkSettings.Setting> knobs, String benchmark,
      DetectionSettings defaults) {
    BenchmarkSettings.Setting s = knobs.get(benchmark);
    return s == null ? defaults : s.apply(defaults);
  }

  /** The other metrics of the same benchmark in this run, across the step's version pair. */
  private static List<Regression.Hint> hints(SeriesWindow w, Step step, List<SeriesWindow> all) {
    return all.stream().filter(o -> o != w && o.benchmark().equals(w.benchmark()))
        .map(o -> Regression.Hint.of(o, step.baselineVersion(), step.version())).filter(Objects::nonNull).toList();
  }
}
