package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Service;

/**
 * The upload path of detection: after each stored run (alone, or one of a session's judged one after the other),
 * locks the series it touched, reads the window around the run's version, writes the version's points and hands
 * the windows to the {@link Decisions}. A bulk import is judged by {@link ImportJudging}.
 */
@Service
public class DetectionService {

  private final SeriesLocks locks;
  private final KnownNames knownNames;
  private final WindowRead windows;
  private final PointWrites pointWrites;
  private final BatchRunReads batches;
  private final SeriesStamps stamps;
  private final Regressions queries;
  private final BenchmarkSettings settings;
  private final DetectionProperties properties;
  private final Decisions decisions;

  DetectionService(SeriesLocks locks, KnownNames knownNames, WindowRead windows, PointWrites pointWrites,
      BatchRunReads batches, SeriesStamps stamps, Regressions queries, BenchmarkSettings settings,
      DetectionProperties properties, Decisions decisions) {
    this.locks = locks;
    this.knownNames = knownNames;
    this.windows = windows;
    this.pointWrites = pointWrites;
    this.batches = batches;
    this.stamps = stamps;
    this.queries = queries;
    this.settings = settings;
    this.properties = properties;
    this.decisions = decisions;
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
    List<Long> raised = decisions.judge(run, loaded, settings.forProduct(run.productId()), null, null, null, waiting,
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
}
