package org.perftrack.server.detection;

import jakarta.annotation.PreDestroy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.Future;
import org.springframework.stereotype.Service;

/**
 * Judging after a bulk import (and of series judged again without an upload, {@link Rejudging}): the points of
 * every touched (series, version) are written in one pass, each touched series' points read once, and each touched
 * version judged in version order with the windows cut from memory as they were when that version's runs arrived,
 * reconciling with the stored steps as one-by-one uploads would ({@link Decisions}).
 */
@Service
public class ImportJudging {
  /** Versions an import judges together: their windows in memory at once, their first passes in parallel. */
  static final int JUDGED_TOGETHER = 64;

  private final SeriesLocks locks;
  private final KnownNames knownNames;
  private final PointWrites pointWrites;
  private final HistoryRead histories;
  private final RegressionStore store;
  private final Regressions queries;
  private final BenchmarkSettings settings;
  private final DetectionProperties properties;
  private final Decisions decisions;
  /**
   * Threads for an import's first passes (as many as cores): they run while the request thread cuts the next
   * windows and reconciles, so a second core works through the import's detection, not only its parallel part.
   */
  private final ForkJoinPool pool = new ForkJoinPool(Runtime.getRuntime().availableProcessors(), p -> {
    ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
    t.setName("import-detect-" + t.getPoolIndex());
    t.setDaemon(true);
    return t;
  }, null, false);

  ImportJudging(SeriesLocks locks, KnownNames knownNames, PointWrites pointWrites, HistoryRead histories,
      RegressionStore store, Regressions queries, BenchmarkSettings settings, DetectionProperties properties,
      Decisions decisions) {
    this.locks = locks;
    this.knownNames = knownNames;
    this.pointWrites = pointWrites;
    this.histories = histories;
    this.store = store;
    this.queries = queries;
    this.settings = settings;
    this.properties = properties;
    this.decisions = decisions;
  }

  @PreDestroy
  void stop() {
    pool.shutdownNow();
  }

  /**
   * A (product, machine, version) a bulk import stored runs for: one of those runs (null when series are judged again
   * without one), and the series they touched.
   */
  public record Imported(UUID runId, long productId, long machineId, long versionId, Set<Long> seriesIds) {}

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

  /** As {@link #onImported(List, Set, String)}, every touched pair summarised again from all its stored runs. */
  public Map<UUID, List<Regression>> onImported(List<Imported> touched) {
    return onImported(touched, null);
  }

  /**
   * Judges the touched versions in version order, in the import's last transaction, with the points written by
   * {@link #onImportedValues} already: only the pairs in {@code readBack} are summarised again from all their stored
   * runs (null: every touched pair). Returns the regressions raised, by the run that stands for its version.
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
    Map<Long, Cuts> cuts = new HashMap<>();
    histories.history(from, side).forEach((series, points) ->
        cuts.put(series, new Cuts(points, importedVersions.get(series))));
    // the series with stored steps, kept up to date as the versions are judged: only their steps are read
    Set<Long> withSteps = store.seriesWithSteps(List.copyOf(all));
    judgeInOrder(ordered, cuts, side, versions, withSteps, curation, raised);
    return raised;
  }

  /**
   * Chunks of versions: the request thread cuts a chunk's windows and reconciles it in version order, while the
   * detector's first pass over the next chunk's windows runs on the import's detection threads (it is pure, and the
   * windows do not depend on what was judged before: the points are all written).
   */
  private void judgeInOrder(List<Imported> ordered, Map<Long, Cuts> cuts, int side, Map<Long, VersionRef> versions,
      Set<Long> withSteps, String curation, Map<UUID, List<Regression>> raised) {
    Map<Long, Map<String, BenchmarkSettings.Setting>> knobs = new java.util.concurrent.ConcurrentHashMap<>();
    Chunk next = chunk(ordered, 0, cuts, side, versions, knobs);
    Future<List<List<DetectionResult>>> nextFirst = firstPass(next, knobs);
    while (next != null) {
      Chunk current = next;
      Future<List<List<DetectionResult>>> currentFirst = nextFirst;
      int after = current.start() + current.runs().size();
      next = after < ordered.size() ? chunk(ordered, after, cuts, side, versions, knobs) : null;
      nextFirst = next == null ? null : firstPass(next, knobs);
      List<List<DetectionResult>> first = await(currentFirst);
      for (int i = 0; i < current.runs().size(); i++) {
        StoredRun run = current.runs().get(i);
        List<Long> ids = decisions.judge(run, current.loaded().get(i), knobs.get(run.productId()), withSteps,
            first.get(i), curation, null, null);
        if (!ids.isEmpty()) {
          raised.computeIfAbsent(run.runId(), k -> new ArrayList<>()).addAll(queries.byIds(ids));
        }
      }
    }
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
      runs.add(new StoredRun(t.runId(), t.productId(), t.versionId(), null, List.copyOf(t.seriesIds())));
      loaded.add(windowsOfRun);
      names.add(versions.get(t.versionId()).name());
      knobs.computeIfAbsent(t.productId(), settings::forProduct);
    }
    return new Chunk(start, runs, loaded, names);
  }

  /** The detector's first pass over a chunk's windows, started on the import's detection threads. */
  private Future<List<List<DetectionResult>>> firstPass(Chunk chunk,
      Map<Long, Map<String, BenchmarkSettings.Setting>> knobs) {
    return pool.submit(() -> java.util.stream.IntStream.range(0, chunk.runs().size()).parallel()
        .mapToObj(i -> decisions.firstPass(chunk.loaded().get(i), chunk.runs().get(i), chunk.names().get(i),
            knobs.get(chunk.runs().get(i).productId())))
        .toList());
  }

  private static <T> T await(Future<T> future) {
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
}
