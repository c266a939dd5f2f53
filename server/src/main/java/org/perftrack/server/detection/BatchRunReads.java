package org.perftrack.server.detection;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Reads the interleaved runs (batches) detection uses to confirm or veto a step: the judged ones (a run of a session
 * still waiting for its other runs, listed in {@code session_pending}, is not judged yet).
 */
@Repository
class BatchRunReads {

  private final JdbcClient jdbc;

  BatchRunReads(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * The session's first judged run of each of these versions (its other runs' results are never visited), whether
   * the session has more runs of it, and that run's results in these series (a row without a series when it has
   * none of them). Detection pairs the first run of a version in a session, so one is enough; the run rows read
   * are the session's runs of the windows' versions.
   */
  static final String BATCH_FIRST_RUNS = """
      WITH firsts AS MATERIALIZED (
        SELECT x.id, x.version_id, x.received_at, x.more FROM (
          SELECT ru.id, ru.version_id, ru.received_at,
                 row_number() OVER (PARTITION BY ru.version_id ORDER BY ru.received_at, ru.id) AS k,
                 count(*) OVER (PARTITION BY ru.version_id) > 1 AS more
          FROM run ru
          WHERE ru.batch = ? AND ru.version_id = ANY(?::bigint[])
            AND NOT EXISTS (SELECT 1 FROM session_pending p WHERE p.run_id = ru.id)) AS x
        WHERE x.k = 1)
      SELECT f.version_id, f.more, r.series_id, v.name AS version, r.samples::text AS samples
      FROM firsts f JOIN version v ON v.id = f.version_id
        LEFT JOIN result r ON r.run_id = f.id AND r.series_id = ANY(?::bigint[])
      ORDER BY r.series_id, f.received_at, f.id""";

  /**
   * A series' first run of a version in the session where the session's first run of that version did not measure
   * it: the first of the session's runs of the version that did.
   */
  static final String BATCH_FIRST_RUNS_OF_SERIES = """
      SELECT DISTINCT ON (r.series_id, r.version_id) r.series_id, v.name AS version, r.samples::text AS samples
      FROM result r JOIN run ru ON ru.id = r.run_id JOIN version v ON v.id = r.version_id
      WHERE r.series_id = ANY(?::bigint[]) AND r.version_id = ANY(?::bigint[]) AND ru.batch = ?
        AND NOT EXISTS (SELECT 1 FROM session_pending p WHERE p.run_id = ru.id)
      ORDER BY r.series_id, r.version_id, ru.received_at, ru.id""";

  /**
   * The session's runs of the versions near the windows, one per series and version: the product's versions within
   * {@code 2 × side} of the changed version's sort key each way (the windows reach {@code side} points of a series)
   * that are not in the windows, through the version table's (product, sort_key) index; then the session's runs of
   * those versions. So the read is bounded as the windows are, whether the session has one version or versions far
   * apart.
   */
  static final String BATCH_VERSIONS_NEAR = """
      WITH near AS MATERIALIZED (
        (SELECT v.id FROM version v WHERE v.product_id = ? AND v.sort_key < ? ORDER BY v.sort_key DESC LIMIT ?)
        UNION ALL
        (SELECT v.id FROM version v WHERE v.product_id = ? AND v.sort_key > ? ORDER BY v.sort_key LIMIT ?)),
      runs AS MATERIALIZED (
        SELECT ru.id, ru.batch, ru.received_at FROM near JOIN run ru ON ru.version_id = near.id
        WHERE ru.batch = ? AND ru.version_id <> ALL(?::bigint[])
          AND NOT EXISTS (SELECT 1 FROM session_pending p WHERE p.run_id = ru.id))
      SELECT DISTINCT ON (r.series_id, r.version_id)
        r.series_id, ru.batch::text AS batch, v.name AS version, r.samples::text AS samples
      FROM runs ru JOIN result r ON r.run_id = ru.id JOIN version v ON v.id = r.version_id
      WHERE r.series_id = ANY(?::bigint[])
      ORDER BY r.series_id, r.version_id, ru.received_at, ru.id""";

  /**
   * The runs of one interleaved session (batch) in these series, with their raw samples in round order: those of
   * the versions detection has in its windows ({@code versionIds}, around the version of sort key {@code sortKey},
   * {@code side} points each way), the only ones it can pair. A series with fewer than two of the session's
   * versions among them also gets one run of up to two of the session's versions near the windows (within
   * {@code 2 × side} of the product's versions of {@code sortKey}), which say that the series was measured
   * interleaved ({@code LocalScan}). So the read stays as large as the windows, however many runs the session has
   * and however far apart its versions are.
   */
  Map<Long, List<BatchRun>> batchRuns(List<Long> seriesIds, java.util.UUID batch, List<Long> versionIds,
      long productId, String sortKey, int side) {
    Map<Long, List<BatchRun>> out = new HashMap<>();
    if (batch == null || seriesIds.isEmpty()) {
      return out;
    }
    Long[] versions = versionIds.toArray(Long[]::new);
    Long[] series = seriesIds.toArray(Long[]::new);
    String session = batch.toString();
    Map<Long, String> more = new HashMap<>(); // versions of which the session has more than one run: id -> name
    java.util.Set<String> read = new java.util.HashSet<>(); // series:version
    jdbc.sql(BATCH_FIRST_RUNS).params(batch, versions, series).query((ResultSet rs) -> {
      if (rs.getBoolean("more")) {
        more.put(rs.getLong("version_id"), rs.getString("version"));
      }
      long id = rs.getLong("series_id");
      if (!rs.wasNull()) {
        out.computeIfAbsent(id, k -> new ArrayList<>()).add(new BatchRun(session, rs.getString("version"),
            RunPoints.parse(rs.getString("samples"))));
        read.add(id + ":" + rs.getString("version"));
      }
    });
    List<Long> unread = seriesIds.stream().filter(id -> more.values().stream().anyMatch(v -> !read.contains(id + ":"
        + v))).toList();
    if (!unread.isEmpty()) { // rare: the session's first run of a version did not measure the series, a later one may
      jdbc.sql(BATCH_FIRST_RUNS_OF_SERIES).params(unread.toArray(Long[]::new), more.keySet().toArray(Long[]::new),
          batch).query((ResultSet rs) -> {
            long id = rs.getLong("series_id");
            if (read.add(id + ":" + rs.getString("version"))) {
              out.computeIfAbsent(id, k -> new ArrayList<>()).add(new BatchRun(session, rs.getString("version"),
                  RunPoints.parse(rs.getString("samples"))));
            }
          });
    }
    List<Long> few = seriesIds.stream().filter(id -> out.getOrDefault(id, List.of()).stream().map(BatchRun::version)
        .distinct().count() < 2).toList();
    if (!few.isEmpty()) {
      Long[] ids = few.toArray(Long[]::new);
      jdbc.sql(BATCH_VERSIONS_NEAR).params(productId, sortKey, 2 * side, productId, sortKey, 2 * side, batch,
          versions, ids)
          .query((ResultSet rs) -> {
            long id = rs.getLong("series_id");
            List<BatchRun> runs = out.computeIfAbsent(id, k -> new ArrayList<>());
            if (runs.stream().map(BatchRun::version).distinct().count() < 2) {
              runs.add(batchRun(rs));
            }
          });
    }
    return out;
  }

  /**
   * The samples are turned into text only for the run kept of each session and version (a session that measured a
   * version many times has many rows here).
   */
  static final String BATCH_RUNS_OF_VERSIONS = """
      SELECT x.series_id, x.batch::text AS batch, x.version_id, v.name AS version, x.samples::text AS samples,
             x.received_at, x.id FROM (
        SELECT DISTINCT ON (r.series_id, ru.batch, r.version_id)
          r.series_id, ru.batch, r.version_id, r.samples, ru.received_at, ru.id
        FROM result r JOIN run ru ON ru.id = r.run_id
        WHERE r.series_id = ANY(?::bigint[]) AND r.version_id = ANY(?::bigint[]) AND ru.batch IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM session_pending p WHERE p.run_id = ru.id)
        ORDER BY r.series_id, ru.batch, r.version_id, ru.received_at, ru.id) AS x
        JOIN version v ON v.id = x.version_id
      ORDER BY x.series_id, x.received_at, x.id""";

  /**
   * The interleaved runs of these versions in these series, the first of each session (batch) and version, the one
   * detection pairs: what detection reads when a step was seen, so that the interleaved sessions of the whole window
   * can confirm or veto it.
   */
  Map<Long, List<BatchRun>> batchRuns(List<Long> seriesIds, List<Long> versionIds) {
    Map<Long, List<BatchRun>> out = new HashMap<>();
    if (!seriesIds.isEmpty() && !versionIds.isEmpty()) {
      firstRuns(seriesIds, versionIds, (series, version, run) -> out.computeIfAbsent(series, k -> new ArrayList<>())
          .add(run.run()));
    }
    return out;
  }

  private interface FirstRunSink {
    void accept(long seriesId, long versionId, FirstRun run);
  }

  /** A session's first run of a version in a series, with the order the reads list it in. */
  private record FirstRun(BatchRun run, java.time.Instant receivedAt, String runId) {
    boolean after(java.time.Instant at, String id) {
      int c = receivedAt.compareTo(at);
      return c > 0 || c == 0 && runId.compareTo(id) > 0; // a uuid's text sorts as PostgreSQL sorts the uuid
    }
  }

  private static final java.util.Comparator<FirstRun> LISTED = java.util.Comparator.comparing(FirstRun::receivedAt)
      .thenComparing(FirstRun::runId);

  private void firstRuns(List<Long> seriesIds, List<Long> versionIds, FirstRunSink sink) {
    jdbc.sql(BATCH_RUNS_OF_VERSIONS).params(seriesIds.toArray(Long[]::new), versionIds.toArray(Long[]::new))
        .query((ResultSet rs) -> {
          sink.accept(rs.getLong("series_id"), rs.getLong("version_id"), new FirstRun(batchRun(rs),
              rs.getObject("received_at", java.time.OffsetDateTime.class).toInstant(), rs.getString("id")));
        });
  }

  /** A new {@link Kept}, for the runs of sessions one transaction judges one after the other. */
  Kept kept() {
    return new Kept();
  }

  /**
   * The reads of {@link #batchRuns(List, List)} kept while one transaction judges a session's runs one after the
   * other: each (series, version) is read once, and read again only when a run judged meanwhile becomes its
   * session's first of that version there ({@link #judging}). So a session of N runs of one version reads that
   * version's N runs once, not once per run. Only for a transaction that holds the series' locks and changes no
   * result meanwhile.
   */
  final class Kept {
    private final Map<Long, Map<Long, List<FirstRun>>> byVersion = new HashMap<>(); // version -> series -> runs

    /** As {@link BatchRunReads#batchRuns(List, List)}, from what was read before where it still holds. */
    Map<Long, List<BatchRun>> batchRuns(List<Long> seriesIds, List<Long> versionIds) {
      Map<Long, List<BatchRun>> out = new HashMap<>();
      if (seriesIds.isEmpty() || versionIds.isEmpty()) {
        return out;
      }
      java.util.Set<Long> series = new java.util.LinkedHashSet<>();
      java.util.Set<Long> versions = new java.util.LinkedHashSet<>();
      for (Long v : versionIds) {
        Map<Long, List<FirstRun>> known = byVersion.get(v);
        for (Long s : seriesIds) {
          if (known == null || !known.containsKey(s)) {
            series.add(s);
            versions.add(v);
          }
        }
      }
      if (!series.isEmpty()) {
        for (Long v : versions) {
          Map<Long, List<FirstRun>> known = byVersion.computeIfAbsent(v, k -> new HashMap<>());
          series.forEach(s -> known.put(s, new ArrayList<>()));
        }
        firstRuns(List.copyOf(series), List.copyOf(versions), (s, v, run) -> byVersion.get(v).get(s).add(run));
      }
      List<Long> distinct = versionIds.stream().distinct().toList();
      for (Long s : seriesIds) {
        List<FirstRun> runs = new ArrayList<>();
        distinct.forEach(v -> runs.addAll(byVersion.get(v).get(s)));
        if (!runs.isEmpty()) {
          runs.sort(LISTED);
          out.put(s, runs.stream().map(FirstRun::run).collect(java.util.stream.Collectors.toCollection(
              ArrayList::new)));
        }
      }
      return out;
    }

    /**
     * A run of {@code batch} and {@code versionId}, received at {@code receivedAt}, is judged from now on: the
     * series where it may become the session's first run of its version are read again.
     */
    void judging(java.util.UUID runId, java.util.UUID batch, long versionId, java.time.OffsetDateTime receivedAt) {
      Map<Long, List<FirstRun>> known = byVersion.get(versionId);
      if (known == null) {
        return;
      }
      String session = batch.toString();
      String id = runId.toString();
      known.values().removeIf(runs -> runs.stream().noneMatch(r -> r.run().batch().equals(session)
          && !r.after(receivedAt.toInstant(), id)));
    }
  }

  private static BatchRun batchRun(ResultSet rs) throws SQLException {
    return new BatchRun(rs.getString("batch"), rs.getString("version"), RunPoints.parse(rs.getString("samples")));
  }
}
