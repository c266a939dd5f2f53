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

  /** The session's runs of these versions first (its other runs' results are never visited). */
  static final String BATCH_RUNS_OF_BATCH = """
      WITH runs AS MATERIALIZED (
        SELECT ru.id, ru.batch, ru.received_at FROM run ru
        WHERE ru.batch = ? AND ru.version_id = ANY(?::bigint[])
          AND NOT EXISTS (SELECT 1 FROM session_pending p WHERE p.run_id = ru.id))
      SELECT r.series_id, ru.batch::text AS batch, v.name AS version, r.samples::text AS samples
      FROM runs ru JOIN result r ON r.run_id = ru.id JOIN version v ON v.id = r.version_id
      WHERE r.series_id = ANY(?::bigint[])
      ORDER BY r.series_id, ru.received_at, ru.id""";

  /**
   * The session's runs of the versions near the windows, one per series and version: the versions of each series
   * within {@code 2 × side} points of the changed version's sort key (the windows reach {@code side}) that are not
   * in the windows, through {@code detection_point}'s (series, sort_key) index; then the session's runs of those
   * versions. So the read is bounded as the windows are, whether the session has one version or versions far apart.
   */
  static final String BATCH_VERSIONS_NEAR = """
      WITH near AS MATERIALIZED (
        SELECT DISTINCT n.version_id
        FROM unnest(?::bigint[]) AS s(id)
        CROSS JOIN LATERAL (
          (SELECT p.version_id FROM detection_point p
            WHERE p.series_id = s.id AND p.sort_key < ? ORDER BY p.sort_key DESC LIMIT ?)
          UNION ALL
          (SELECT p.version_id FROM detection_point p
            WHERE p.series_id = s.id AND p.sort_key > ? ORDER BY p.sort_key LIMIT ?)) AS n
        WHERE n.version_id <> ALL(?::bigint[])),
      runs AS MATERIALIZED (
        SELECT ru.id, ru.batch, ru.received_at FROM near JOIN run ru ON ru.version_id = near.version_id
        WHERE ru.batch = ? AND NOT EXISTS (SELECT 1 FROM session_pending p WHERE p.run_id = ru.id))
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
   * {@code 2 × side} points of {@code sortKey}), which say that the series was measured interleaved
   * ({@code LocalScan}). So the read stays as large as the windows, however many runs the session has and however
   * far apart its versions are.
   */
  Map<Long, List<BatchRun>> batchRuns(List<Long> seriesIds, java.util.UUID batch, List<Long> versionIds,
      String sortKey, int side) {
    Map<Long, List<BatchRun>> out = new HashMap<>();
    if (batch == null || seriesIds.isEmpty()) {
      return out;
    }
    Long[] versions = versionIds.toArray(Long[]::new);
    jdbc.sql(BATCH_RUNS_OF_BATCH).params(batch, versions, seriesIds.toArray(Long[]::new)).query((ResultSet rs) -> {
      out.computeIfAbsent(rs.getLong("series_id"), k -> new ArrayList<>()).add(batchRun(rs));
    });
    List<Long> few = seriesIds.stream().filter(id -> out.getOrDefault(id, List.of()).stream().map(BatchRun::version)
        .distinct().count() < 2).toList();
    if (!few.isEmpty()) {
      Long[] ids = few.toArray(Long[]::new);
      jdbc.sql(BATCH_VERSIONS_NEAR).params(ids, sortKey, 2 * side, sortKey, 2 * side, versions, batch, ids)
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

  static final String BATCH_RUNS_OF_VERSIONS = """
      SELECT r.series_id, ru.batch::text AS batch, v.name AS version, r.samples::text AS samples
      FROM result r JOIN run ru ON ru.id = r.run_id JOIN version v ON v.id = r.version_id
      WHERE r.series_id = ANY(?::bigint[]) AND r.version_id = ANY(?::bigint[]) AND ru.batch IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM session_pending p WHERE p.run_id = ru.id)
      ORDER BY r.series_id, ru.received_at, ru.id""";

  /**
   * Every interleaved run of these versions in these series: what detection reads when a step was seen,
   * so that the interleaved sessions of the whole window can confirm or veto it.
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
