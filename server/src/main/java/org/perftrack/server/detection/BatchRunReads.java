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
      SELECT x.series_id, x.batch::text AS batch, v.name AS version, x.samples::text AS samples FROM (
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
    if (seriesIds.isEmpty() || versionIds.isEmpty()) {
      return out;
    }
    jdbc.sql(BATCH_RUNS_OF_VERSIONS).params(seriesIds.toArray(Long[]::new), versionIds.toArray(Long[]::new))
        .query((ResultSet rs) -> {
          out.computeIfAbsent(rs.getLong("series_id"), k -> new ArrayList<>()).add(batchRun(rs));
        });
    return out;
  }

  private static BatchRun batchRun(ResultSet rs) throws SQLException {
    return new BatchRun(rs.getString("batch"), rs.getString("version"), RunPoints.parse(rs.getString("samples")));
  }
}
