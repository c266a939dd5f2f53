package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Judges series again after their data changed other than by an upload: runs excluded, deleted or restored (in the
 * transaction that changed them), and import batches stored but not judged (a crash between the two: an import's
 * batches are marked in {@code import_due} until the import judges them; one left behind becomes due pairs in
 * {@code judging_due}, {@link JudgingDue}). Judging pairs summarises each pair's point again from the results that
 * count (removing it when none is left), judges the windows around them as an upload would, withdraws the open steps
 * whose versions have no data left, and clears their marks, all in the caller's transaction.
 */
@Service
public class Rejudging {

  /**
   * Two series became one (their machines merged): the steps and points of {@code from} go to the series at the same
   * index of {@code into} (the points are summarised again from the moved results when the caller judges the pairs).
   */
  public void mergedSeries(List<Long> from, List<Long> into) {
    for (int i = 0; i < from.size(); i++) {
      jdbc.sql("UPDATE regression SET series_id = ? WHERE series_id = ?").params(into.get(i), from.get(i)).update();
    }
    Long[] gone = from.toArray(Long[]::new);
    jdbc.sql("DELETE FROM detection_point WHERE series_id = ANY(?::bigint[])").param(gone).update();
    jdbc.sql("DELETE FROM chart_summary WHERE series_id = ANY(?::bigint[])").param(gone).update();
    jdbc.sql("DELETE FROM detection_stamp WHERE series_id = ANY(?::bigint[])").param(gone).update();
    jdbc.sql("DELETE FROM judging_due WHERE series_id = ANY(?::bigint[])").param(gone).update();
    stamps.stamp(into);
  }

  /** What a re-judgement raised (regressions created or reopened) and which series it judged. */
  public record Outcome(List<Regression> raised, Set<Long> seriesIds) {
    static final Outcome NONE = new Outcome(List.of(), Set.of());
  }

  private final ImportJudging detection;
  private final JudgingDue due;
  private final SeriesLocks locks;
  private final KnownNames knownNames;
  private final PointWrites pointWrites;
  private final SeriesStamps stamps;
  private final RegressionStore store;
  private final JdbcClient jdbc;

  Rejudging(ImportJudging detection, JudgingDue due, SeriesLocks locks, KnownNames knownNames,
      PointWrites pointWrites, SeriesStamps stamps, RegressionStore store, JdbcClient jdbc) {
    this.detection = detection;
    this.due = due;
    this.locks = locks;
    this.knownNames = knownNames;
    this.pointWrites = pointWrites;
    this.stamps = stamps;
    this.store = store;
    this.jdbc = jdbc;
  }

  /**
   * In the transaction that changed the data of these (series, version) pairs: judges them (nothing is marked due:
   * a crash undoes the change too), and clears what an earlier change left due there.
   * {@code reason} is what the history says ("data excluded by alice").
   */
  public Outcome changed(Collection<List<Long>> pairs, String reason) {
    return judge(pairs, reason);
  }

  /**
   * An upload's look for pairs of its series left due by an import that never finished (another server's): only
   * what was stored over {@value #STALE_SECONDS} seconds ago (an import under way judges its own at its end; a
   * crashed server's are also judged when it starts again).
   */
  public Outcome pickUpStale(Collection<Long> seriesIds) {
    return judgeDue(due.ofSeries(seriesIds, java.time.OffsetDateTime.now().minusSeconds(STALE_SECONDS),
        List.copyOf(running)));
  }

  static final long STALE_SECONDS = 3600;

  /** The imports under way in this server: each judges what it stores itself, at its end. */
  private final Set<java.util.UUID> running = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * An import begins: until {@link #importEnded} nobody else judges what it stores. Returns when it began (the
   * database's clock), for {@link #pickUp}.
   */
  public java.time.OffsetDateTime importBegins(java.util.UUID importId) {
    running.add(importId);
    return due.now();
  }

  /** The import has ended (judged, or failed: then what it stored is left to the next look). */
  public void importEnded(java.util.UUID importId) {
    running.remove(importId);
  }

  /** In an import batch's transaction: it stored these runs, which the import judges at its end. */
  public void imported(java.util.UUID importId, Collection<java.util.UUID> runIds) {
    due.markImported(importId, runIds);
  }

  /** In the import's judging transaction: what it stored is judged, nothing of it is left due. */
  public void importJudged(java.util.UUID importId) {
    due.importJudged(importId);
  }

  /**
   * An import's look for the pairs left due in its series and at its (machine id, version id) places by what came
   * before it (an import that stopped before its end): only pairs marked and batches stored before {@code began}
   * ({@link #importBegins}), and not by the imports still running in this server, so that it does not judge, nor
   * wait for, what other imports store meanwhile and judge themselves.
   */
  public Outcome pickUp(Collection<Long> seriesIds, Collection<List<Long>> places, java.time.OffsetDateTime began) {
    List<JudgingDue.Due> found = new ArrayList<>(due.ofSeries(seriesIds, began, List.copyOf(running)));
    if (seriesIds.isEmpty() && !places.isEmpty()) {
      due.adopt(began, List.copyOf(running));
    }
    due.atPlaces(places, began).stream().filter(d -> !seriesIds.contains(d.seriesId())).forEach(found::add);
    return judgeDue(found);
  }

  /**
   * Judges up to {@code limit} of the oldest pairs left due anywhere, with the batches of imports not running (at
   * start-up: what a crash left); none left gives NONE.
   */
  public Outcome pickUpOldest(int limit) {
    due.adopt(due.now(), List.copyOf(running));
    return judgeDue(due.oldest(limit));
  }

  /** Judges pairs found due, those still due once their series are locked (another transaction may have judged them). */
  private Outcome judgeDue(List<JudgingDue.Due> found) {
    if (found.isEmpty()) {
      return Outcome.NONE;
    }
    Set<Long> locked = new TreeSet<>();
    found.forEach(d -> locked.add(d.seriesId()));
    locks.lockSeries(List.copyOf(locked));
    Set<List<Long>> still = due.stillDue(found.stream().map(d -> List.of(d.seriesId(), d.versionId())).toList());
    Map<String, List<List<Long>>> byReason = new LinkedHashMap<>();
    found.stream().filter(d -> still.contains(List.of(d.seriesId(), d.versionId()))).forEach(d -> byReason.computeIfAbsent(d.reason() == null ? "" : d.reason(), k -> new ArrayList<>())
        .add(List.of(d.seriesId(), d.versionId())));
    List<Regression> raised = new ArrayList<>();
    Set<Long> series = new LinkedHashSet<>();
    byReason.forEach((reason, pairs) -> {
      Outcome o = judge(pairs, reason.isEmpty() ? null : reason);
      raised.addAll(o.raised());
      series.addAll(o.seriesIds());
    });
    return new Outcome(raised, series);
  }

  private record SeriesOf(long id, long productId, long machineId) {}

  static final String SERIES = "SELECT id, product_id, machine_id FROM series WHERE id = ANY(?::bigint[])";

  static final String DROP_EMPTY_POINTS = """
      DELETE FROM detection_point p USING unnest(?::bigint[], ?::text[]) AS k(series_id, sort_key)
      WHERE p.series_id = k.series_id AND p.sort_key = k.sort_key
        AND NOT EXISTS (SELECT 1 FROM result r WHERE r.series_id = p.series_id AND r.version_id = p.version_id)""";

  /** The version of the series' point nearest to a sort key: the next one after it, else the last one before. */
  static final String STANDING = """
      SELECT coalesce(
        (SELECT p.version_id FROM detection_point p WHERE p.series_id = ? AND p.sort_key >= ? ORDER BY p.sort_key LIMIT 1),
        (SELECT p.version_id FROM detection_point p WHERE p.series_id = ? AND p.sort_key < ?
         ORDER BY p.sort_key DESC LIMIT 1))""";

  static final String ORPHANED = """
      SELECT rg.id FROM regression rg
      WHERE rg.series_id = ANY(?::bigint[]) AND rg.status = 'open'
        AND (NOT EXISTS (SELECT 1 FROM detection_point p WHERE p.series_id = rg.series_id
                           AND p.sort_key = (SELECT v.sort_key FROM version v WHERE v.id = rg.version_id))
          OR NOT EXISTS (SELECT 1 FROM detection_point p WHERE p.series_id = rg.series_id
                           AND p.sort_key = (SELECT v.sort_key FROM version v WHERE v.id = rg.baseline_version_id)))
      ORDER BY rg.id""";

  private Outcome judge(Collection<List<Long>> pairs, String reason) {
    if (pairs.isEmpty()) {
      return Outcome.NONE;
    }
    Set<Long> seriesIds = new TreeSet<>();
    pairs.forEach(p -> seriesIds.add(p.get(0)));
    locks.lockSeries(List.copyOf(seriesIds));
    Map<Long, VersionRef> versions = knownNames.versions(pairs.stream().map(p -> p.get(1)).distinct().toList());
    pointWrites.writePoints(pairs, versions);
    jdbc.sql(DROP_EMPTY_POINTS).params(pairs.stream().map(p -> p.get(0)).toArray(Long[]::new),
        pairs.stream().map(p -> versions.get(p.get(1)).sortKey()).toArray(String[]::new)).update();
    stamps.stamp(seriesIds);
    Map<Long, SeriesOf> series = new HashMap<>();
    jdbc.sql(SERIES).param(seriesIds.toArray(Long[]::new)).query(SeriesOf.class).list()
        .forEach(s -> series.put(s.id(), s));
    Map<List<Long>, ImportJudging.Imported> touched = new LinkedHashMap<>();
    for (List<Long> pair : pairs) {
      SeriesOf s = series.get(pair.get(0));
      String key = versions.get(pair.get(1)).sortKey();
      Long standing = s == null ? null : jdbc.sql(STANDING).params(s.id(), key, s.id(), key)
          .query(Long.class).optional().orElse(null);
      if (standing != null) {
        touched.computeIfAbsent(List.of(s.productId(), s.machineId(), standing),
            k -> new ImportJudging.Imported(null, s.productId(), s.machineId(), standing, new LinkedHashSet<>()))
            .seriesIds().add(s.id());
      }
    }
    List<Regression> raised = new ArrayList<>();
    detection.onImported(List.copyOf(touched.values()), Set.of(), reason).values().forEach(raised::addAll);
    String withdrawal = reason != null ? reason : "its data is gone";
    for (Long id : jdbc.sql(ORPHANED).param(seriesIds.toArray(Long[]::new)).query(Long.class).list()) {
      store.apply(Decision.withdraw(id, withdrawal), null, List.of(), null, null);
    }
    due.done(pairs);
    return new Outcome(raised, seriesIds);
  }
}
