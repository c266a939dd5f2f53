package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
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

  private final SeriesLocks locks;
  private final KnownNames knownNames;
  private final WindowRead windows;
  private final PointWrites pointWrites;
  private final HistoryRead histories;
  private final BatchRunReads batches;
  private final SeriesStamps stamps;
  private final RegressionStore store;
  private final Regressions queries;
  private final BenchmarkSettings settings;
  private final DetectionProperties properties;
  private final Detector detector = new Detector();
  private final Reconciler reconciler = new Reconciler();

  DetectionService(SeriesLocks locks, KnownNames knownNames, WindowRead windows, PointWrites pointWrites,
      HistoryRead histories, BatchRunReads batches, SeriesStamps stamps, RegressionStore store, Regressions queries,
      BenchmarkSettings settings, DetectionProperties properties) {
    this.locks = locks;
    this.knownNames = knownNames;
    this.windows = windows;
    this.pointWrites = pointWrites;
    this.histories = histories;
    this.batches = batches;
    this.stamps = stamps;
    this.store = store;
    this.queries = queries;
    this.settings = settings;
    this.properties = properties;
  }

  /**
   * Called inside the ingest transaction; returns the regressions this run created. Its SQL is a fixed number
   * of statements whose cost depends on the window, not on the history: lock the series, read their windows,
   * write the new version's points (from the run's own values when the version had no runs before, else from
   * its stored samples), read the stored steps of the window's versions, write the decisions.
   */
  public Judgement onRunStored(StoredRun run) {
    return onRunStored(run, null);
  }

  /**
   * As {@link #onRunStored(StoredRun)}, for one of several runs judged one after the other in one transaction (a
   * session's): the points read back from all the stored runs of a (series, version) are kept in {@code kept} and
   * taken from there when a later run of the same version is judged, instead of reading all that version's samples
   * again (a session of N runs of one version would read N × N runs' results). The caller stores no result between
   * the runs it judges with one {@code kept}.
   */
  public Judgement onRunStored(StoredRun run, ReadBack kept) {
    if (run.seriesIds().isEmpty()) {
      return new Judgement(List.of(), List.of());
    }
    locks.lockSeries(run.seriesIds());
    int side = 2 * properties.window();
    VersionRef changed = knownNames.version(run.versionId());
    Map<Long, WindowRead.Around> around = windows.around(run.seriesIds(), changed, side);
    Map<Long, VersionLevel> points = new LinkedHashMap<>();
    List<Long> readBack = new ArrayList<>();
    for (int i = 0; i < run.seriesIds().size(); i++) {
      Long id = run.seriesIds().get(i);
      if (run.values() != null && !WindowRead.hasPoint(around.get(id), changed)) {
        points.put(id, RunPoints.pointOf(run.values().get(i)));
      } else {
        readBack.add(id);
      }
    }
    points.putAll(kept == null ? pointWrites.readPoints(readBack, run.versionId())
        : kept.read(readBack, run.versionId()));
    // under the series' locks: no point at the version's sort key in any window means none can be written meanwhile
    boolean fresh = readBack.isEmpty() && around.values().stream().noneMatch(WindowRead.Around::keyTaken);
    pointWrites.writePoints(kept == null ? points : kept.unwritten(points, readBack, run.versionId()), changed,
        around, fresh);
    List<SeriesWindow> loaded = new ArrayList<>(points.size());
    around.forEach((id, a) -> {
      VersionLevel p = points.get(id);
      if (p != null) {
        loaded.add(WindowRead.withPoint(a, changed, p, side));
      } else if (!a.window().points().isEmpty()) {
        loaded.add(a.window());
      }
    });
    loaded.sort(java.util.Comparator.comparingLong(SeriesWindow::seriesId)); // the order detection always had
    List<WaitingChange> waiting = new ArrayList<>();
    List<Long> raised = judge(run, loaded, settings.forProduct(run.productId()), null, null, null, waiting,
        kept == null ? null : kept.batchRuns);
    return new Judgement(queries.byIds(raised), waiting);
  }

  /**
   * The points of (series, version) pairs read back from all their stored runs, kept while one transaction judges
   * several runs ({@link #onRunStored(StoredRun, ReadBack)}), and which of them it stored; one transaction's, no
   * result stored and no point written by anything else meanwhile.
   */
  public final class ReadBack {
    private final Map<Long, Map<Long, VersionLevel>> byVersion = new HashMap<>(); // version -> series -> point
    private final Map<Long, Set<Long>> written = new HashMap<>(); // version -> series whose kept point is stored
    private final BatchRunReads.Kept batchRuns = batches.kept();

    /**
     * The caller judges this run of a session from now on (it is no longer waiting for its session): the interleaved
     * runs read before are read again where it may change them.
     */
    public void judging(UUID runId, UUID batch, long versionId, java.time.OffsetDateTime receivedAt) {
      batchRuns.judging(runId, batch, versionId, receivedAt);
    }

    /**
     * The points to write: those of {@code points} not stored by this transaction already; the read-back ones are
     * then counted as stored (writing the same point again would leave one more version of its row each time, and
     * every later write of it would step over them all).
     */
    private Map<Long, VersionLevel> unwritten(Map<Long, VersionLevel> points, List<Long> readBack, long versionId) {
      Set<Long> stored = written.computeIfAbsent(versionId, k -> new HashSet<>());
      Map<Long, VersionLevel> out = new LinkedHashMap<>(points);
      out.keySet().removeAll(stored);
      readBack.stream().filter(points::containsKey).forEach(stored::add);
      return out;
    }

    /** The points of these series at this version, in their order (a series without a stored result has none). */
    private Map<Long, VersionLevel> read(List<Long> seriesIds, long versionId) {
      Map<Long, VersionLevel> known = byVersion.computeIfAbsent(versionId, k -> new HashMap<>());
      List<Long> unread = seriesIds.stream().filter(id -> !known.containsKey(id)).toList();
      Map<Long, VersionLevel> read = pointWrites.readPoints(unread, versionId);
      unread.forEach(id -> known.put(id, read.get(id)));
      Map<Long, VersionLevel> out = new LinkedHashMap<>();
      for (Long id : seriesIds) {
        VersionLevel p = known.get(id);
        if (p != null) {
          out.put(id, p);
        }
      }
      return out;
    }
  }

  /** A new {@link ReadBack}, for the runs one transaction judges one after the other. */
  public ReadBack readBack() {
    return new ReadBack();
  }

  /**
   * What detection made of a new run: the regressions it created, and the changes at its version that wait for one
   * more build ({@link WaitingChange}).
   */
  public record Judgement(List<Regression> regressions, List<WaitingChange> waiting) {}

  /** Detects over the loaded windows of one run, reconciles and writes; returns the ids of what it raised. */
  private List<Long> judge(StoredRun run, List<SeriesWindow> loaded, Map<String, BenchmarkSettings.Setting> knobs,
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

  private List<SeriesWindow> primary(List<SeriesWindow> loaded) {
    return loaded.stream().filter(w -> !properties.isSecondary(w.metric())).toList();
  }

  /** Versions an import judges together: their windows in memory at once, their first passes in parallel. */
  static final int JUDGED_TOGETHER = 64;

  /** A (product, machine, version) a bulk import stored runs for: one of those runs, and the series they touched. */
  public record Imported(UUID runId, long productId, long machineId, long versionId, Set<Long> seriesIds) {}

  /**
   * Detection after a bulk import, in the import's last transaction: the points of every touched (series, version)
   * are written in one pass, the points of every touched series are read once (from {@code 2 × window} before its
   * oldest touched version to its end), and then each touched version is judged in version order with the windows
   * cut from memory as they were when that version's runs arrived (the points imported for later versions not yet
   * there), reconciling with the stored steps as one-by-one uploads would. Returns the regressions raised, by the
   * run that stands for its version.
   */
  public Map<UUID, List<Regression>> onImported(List<Imported> touched) {
    return onImported(touched, null);
  }

  /**
   * Writes, in an import batch's transaction, the points of the (series, version) pairs it stored from the values
   * it stored; returns the pairs that had a point already, which {@link #onImported} reads back from all their runs.
   * (The batch's runs are marked for the import's judging by {@link Rejudging#imported}.)
   */
  public Set<List<Long>> onImportedValues(Map<List<Long>, List<StoredRun.Values>> values) {
    Map<Long, VersionRef> versions =
        knownNames.versions(values.keySet().stream().map(k -> k.get(1)).distinct().toList());
    return pointWrites.writeNewPoints(values, versions);
  }

  /**
   * As {@link #onImported(List)}, with the points written by {@link #onImportedValues} already: only the pairs in
   * {@code readBack} are summarised again from all their stored runs (null: every touched pair).
   */
  public Map<UUID, List<Regression>> onImported(List<Imported> touched, Set<List<Long>> readBack) {
    return onImported(touched, readBack, null);
  }

  /**
   * As {@link #onImported(List, Set)}; {@code curation}, when given, is the change of data a person made, which
   * the decisions name as their reason ({@link CuratedDecisions}). (What is due is cleared by the caller:
   * {@link Rejudging}, or the import's {@link Rejudging#importJudged}.)
   */
  Map<UUID, List<Regression>> onImported(List<Imported> touched, Set<List<Long>> readBack, String curation) {
    Map<UUID, List<Regression>> raised = new LinkedHashMap<>();
    if (touched.isEmpty()) {
      return raised;
    }
    Set<Long> all = new java.util.TreeSet<>();
    touched.forEach(t -> all.addAll(t.seriesIds()));
    locks.lockSeries(List.copyOf(all));
    Map<Long, VersionRef> versions =
        knownNames.versions(touched.stream().map(Imported::versionId).distinct().toList());
    List<Imported> ordered = new ArrayList<>(touched);
    ordered.sort(java.util.Comparator.comparing((Imported t) -> versions.get(t.versionId()).sortKey())
        .thenComparingLong(Imported::productId).thenComparingLong(Imported::machineId));
    Set<List<Long>> imported = new HashSet<>();
    Map<Long, Set<Long>> importedVersions = new HashMap<>();
    Map<Long, String> from = new HashMap<>();
    for (Imported t : ordered) {
      for (Long series : t.seriesIds()) {
        imported.add(List.of(series, t.versionId()));
        importedVersions.computeIfAbsent(series, k -> new HashSet<>()).add(t.versionId());
        from.putIfAbsent(series, versions.get(t.versionId()).sortKey());
      }
    }
    pointWrites.writePoints(readBack == null ? imported : readBack, versions);
    knownNames.prefetchMeta(List.copyOf(all));
    int side = 2 * properties.window();
    Map<Long, List<HistoryRead.Loaded>> history = histories.history(from, side);
    Map<Long, Cuts> cuts = new HashMap<>();
    // the series with stored steps, kept up to date as the versions are judged: only their steps are read
    Set<Long> withSteps = store.seriesWithSteps(List.copyOf(all));
    history.forEach((series, points) -> cuts.put(series, new Cuts(points, importedVersions.get(series))));
    Map<Long, Map<String, BenchmarkSettings.Setting>> knobs = new java.util.concurrent.ConcurrentHashMap<>();
    DetectionSettings defaults = properties.defaults();
    // chunks of versions: the request thread cuts a chunk's windows and reconciles it in version order, while the
    // detector's first pass over the next chunk's windows runs on the import's detection threads (it is pure, and
    // the windows do not depend on what was judged before: the points are all written)
    Chunk next = chunk(ordered, 0, cuts, side, versions, knobs);
    java.util.concurrent.Future<List<List<DetectionResult>>> nextFirst = firstPass(next, knobs, defaults);
    while (next != null) {
      Chunk current = next;
      java.util.concurrent.Future<List<List<DetectionResult>>> currentFirst = nextFirst;
      int after = current.start() + current.runs().size();
      next = after < ordered.size() ? chunk(ordered, after, cuts, side, versions, knobs) : null;
      nextFirst = next == null ? null : firstPass(next, knobs, defaults);
      List<List<DetectionResult>> first = await(currentFirst);
      for (int i = 0; i < current.runs().size(); i++) {
        StoredRun run = current.runs().get(i);
        List<Long> ids = judge(run, current.loaded().get(i), knobs.get(run.productId()), withSteps, first.get(i),
            curation, null, null);
        if (!ids.isEmpty()) {
          raised.computeIfAbsent(run.runId(), k -> new ArrayList<>()).addAll(queries.byIds(ids));
        }
      }
    }
    return raised;
  }

  /** Versions of an import judged together: a stored run standing for each, and the windows cut for it. */
  private record Chunk(int start, List<StoredRun> runs, List<List<SeriesWindow>> loaded, List<String> names) {}

  private Chunk chunk(List<Imported> ordered, int start, Map<Long, Cuts> cuts, int side,
      Map<Long, VersionRef> versions, Map<Long, Map<String, BenchmarkSettings.Setting>> knobs) {
    List<Imported> chunk = ordered.subList(start, Math.min(ordered.size(), start + JUDGED_TOGETHER));
    List<StoredRun> runs = new ArrayList<>(chunk.size());
    List<List<SeriesWindow>> loaded = new ArrayList<>(chunk.size());
    List<String> names = new ArrayList<>(chunk.size());
    for (Imported t : chunk) {
      List<SeriesWindow> windowsOfRun = new ArrayList<>();
      for (Long series : new java.util.TreeSet<>(t.seriesIds())) {
        Cuts c = cuts.get(series);
        List<HistoryRead.Loaded> points = c == null ? null : c.asJudged(t.versionId(), side);
        if (points != null) {
          windowsOfRun.add(histories.window(series, points));
        }
      }
      runs.add(new StoredRun(t.runId(), t.productId(), t.versionId(), null,
          List.copyOf(t.seriesIds())));
      loaded.add(windowsOfRun);
      names.add(versions.get(t.versionId()).name());
      knobs.computeIfAbsent(t.productId(), settings::forProduct);
    }
    return new Chunk(start, runs, loaded, names);
  }

  /** The detector's first pass over a chunk's windows, started on the import's detection threads. */
  private java.util.concurrent.Future<List<List<DetectionResult>>> firstPass(Chunk chunk,
      Map<Long, Map<String, BenchmarkSettings.Setting>> knobs, DetectionSettings defaults) {
    return IMPORT_POOL.submit(() -> java.util.stream.IntStream.range(0, chunk.runs().size()).parallel()
        .mapToObj(i -> detector.detectRun(updates(primary(chunk.loaded().get(i)), Map.of(), chunk.runs().get(i),
            chunk.names().get(i), knobs.get(chunk.runs().get(i).productId()), defaults)))
        .toList());
  }

  private static <T> T await(java.util.concurrent.Future<T> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("import detection interrupted", e);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    }
  }

  /**
   * Threads for an import's first passes (as many as cores): they run while the request thread cuts the next
   * windows and reconciles, so a second core works through the import's detection, not only its parallel part.
   */
  private static final java.util.concurrent.ForkJoinPool IMPORT_POOL = new java.util.concurrent.ForkJoinPool(
      Runtime.getRuntime().availableProcessors(), pool -> {
        java.util.concurrent.ForkJoinWorkerThread t =
            java.util.concurrent.ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
        t.setName("import-detect-" + t.getPoolIndex());
        t.setDaemon(true);
        return t;
      }, null, false);

  /**
   * One series' points read for an import, cut as they stood when one of its imported versions arrived: every
   * point before it, and after it only the points that were there before the import (the imported later versions
   * had not arrived yet). Each cut costs the window, not the history.
   */
  private static final class Cuts {
    private final List<HistoryRead.Loaded> points;
    private final Map<Long, Integer> at = new HashMap<>();
    /** Indexes of the points that were stored before the import, in order. */
    private final int[] before;

    Cuts(List<HistoryRead.Loaded> points, Set<Long> imported) {
      this.points = points;
      int[] kept = new int[points.size()];
      int n = 0;
      for (int i = 0; i < points.size(); i++) {
        long version = points.get(i).version().id();
        at.put(version, i);
        if (imported == null || !imported.contains(version)) {
          kept[n++] = i;
        }
      }
      this.before = java.util.Arrays.copyOf(kept, n);
    }

    /** The window around {@code versionId} as it was when it arrived; null when the series has no point there. */
    List<HistoryRead.Loaded> asJudged(long versionId, int side) {
      Integer i = at.get(versionId);
      if (i == null) {
        return null;
      }
      List<HistoryRead.Loaded> window = new ArrayList<>(points.subList(Math.max(0, i - side), i + 1));
      int k = java.util.Arrays.binarySearch(before, i + 1);
      for (int added = 0, j = k < 0 ? -k - 1 : k; j < before.length && added < side; j++, added++) {
        window.add(points.get(before[j]));
      }
      return window;
    }
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

  /**
   * The change stamps of these series: every transaction that writes a series' detection points sets its stamp to
   * its own id, so an unchanged stamp means no writer committed in between (a series never written has none).
   * For readers that keep something derived from the points (the chart's block summaries).
   */
  public Map<Long, Long> changeStamps(List<Long> seriesIds) {
    return stamps.stamps(seriesIds);
  }

  /**
   * A version just inserted, with the sort key it was inserted with: detection need not read it back. Ids are
   * never handed out twice (not even after a rollback), so this is right even if the insert is rolled back.
   */
  public void knownVersion(long id, String name, String sortKey) {
    knownNames.knownVersion(new VersionRef(id, name, sortKey));
  }

  /** The regressions a run created when it was first stored (for an idempotent re-send). */
  public List<Regression> createdBy(UUID runId) {
    return queries.createdBy(runId);
  }

  /** The regressions a run confirmed: reported unconfirmed at the newest version by an earlier upload. */
  public List<Regression> confirmedBy(UUID runId) {
    return queries.confirmedBy(runId);
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
