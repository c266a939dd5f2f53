package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The durable marker of data that changed and was not judged since ({@code judging_due}): written in the
 * transaction that changes the data, deleted by the one that judges it. A crash in between leaves the marker, so the
 * next start, upload or import of the series judges what would otherwise stay unjudged for good. An import's batches
 * are marked one row per batch ({@code import_due}: its runs), not one per pair: the import judges them at its end;
 * only what a crash left behind becomes due pairs ({@link #ADOPTED}). Work judged in the transaction that changed it
 * marks nothing.
 */
@Repository
class JudgingDue {

  /** One (series, version) whose data changed; {@code reason} says why, for the history (null: new data). */
  record Due(long seriesId, long versionId, String reason) {}

  private final JdbcClient jdbc;

  JudgingDue(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String MARK_IMPORTED = "INSERT INTO import_due (import_id, run_ids) VALUES (?, ?::uuid[])";

  /**
   * In an import batch's transaction: its stored runs, one row, judged by import {@code importId} at its end
   * ({@link #importJudged}); what a crash leaves is adopted as due pairs by the next look ({@link #ADOPTED}).
   */
  void markImported(java.util.UUID importId, Collection<java.util.UUID> runIds) {
    if (!runIds.isEmpty()) {
      jdbc.sql(MARK_IMPORTED).params(importId, runIds.toArray(java.util.UUID[]::new)).update();
    }
  }

  /** In the import's judging transaction: what it stored is judged. */
  void importJudged(java.util.UUID importId) {
    jdbc.sql("DELETE FROM import_due WHERE import_id = ?").param(importId).update();
  }

  /**
   * The batches of imports that are not running in this server and stored before a time (parameters 1, 2) become
   * due pairs, one per (series, version) of their runs, in key order (no deadlock with a {@link #mark}); the adopted
   * pairs are its rows {@code adopted}.
   */
  static final String ADOPTED = """
      WITH left_behind AS (
        DELETE FROM import_due WHERE due_since < ? AND import_id <> ALL(?::uuid[]) RETURNING run_ids, due_since),
      adopted AS (
        INSERT INTO judging_due (series_id, version_id, due_since)
        SELECT r.series_id, r.version_id, min(l.due_since)
        FROM left_behind l CROSS JOIN LATERAL unnest(l.run_ids) AS u(run_id) JOIN result r ON r.run_id = u.run_id
        GROUP BY r.series_id, r.version_id ORDER BY r.series_id, r.version_id
        ON CONFLICT (series_id, version_id) DO NOTHING
        RETURNING series_id, version_id, reason)
      """;

  static final String OF_SERIES_LEFT = ADOPTED + """
      SELECT series_id, version_id, reason FROM judging_due WHERE series_id = ANY(?::bigint[]) AND due_since < ?
      UNION ALL
      SELECT series_id, version_id, reason FROM adopted WHERE series_id = ANY(?::bigint[])""";

  /**
   * The due pairs of these series marked before {@code before}, with the batches stored before it by imports not
   * {@code running} in this server (a crashed import's, adopted as due pairs in the same statement).
   */
  List<Due> ofSeries(Collection<Long> seriesIds, java.time.OffsetDateTime before, Collection<java.util.UUID> running) {
    if (seriesIds.isEmpty()) {
      return List.of();
    }
    Long[] ids = seriesIds.toArray(Long[]::new);
    return jdbc.sql(OF_SERIES_LEFT).params(before, running.toArray(java.util.UUID[]::new), ids, before, ids)
        .query(Due.class).list();
  }

  static final String ADOPT = ADOPTED + "SELECT count(*) FROM adopted";

  /** Adopts the batches stored before {@code before} by imports not {@code running} as due pairs; how many. */
  long adopt(java.time.OffsetDateTime before, Collection<java.util.UUID> running) {
    return jdbc.sql(ADOPT).params(before, running.toArray(java.util.UUID[]::new)).query(Long.class).single();
  }

  /** The database's clock, as {@code due_since} is written with. */
  java.time.OffsetDateTime now() {
    return jdbc.sql("SELECT statement_timestamp()").query(java.time.OffsetDateTime.class).single();
  }

  static final String STILL_DUE = """
      SELECT d.series_id, d.version_id FROM unnest(?::bigint[], ?::bigint[]) AS k(series_id, version_id)
      JOIN judging_due d ON d.series_id = k.series_id AND d.version_id = k.version_id""";

  /**
   * Which of these pairs are still due (read under the series' locks: a pair gone meanwhile was judged by the
   * transaction that took it off).
   */
  java.util.Set<List<Long>> stillDue(Collection<List<Long>> pairs) {
    java.util.Set<List<Long>> out = new java.util.HashSet<>();
    if (!pairs.isEmpty()) {
      jdbc.sql(STILL_DUE).params(pairs.stream().map(p -> p.get(0)).toArray(Long[]::new),
          pairs.stream().map(p -> p.get(1)).toArray(Long[]::new))
          .query((java.sql.ResultSet rs) -> {
            out.add(List.of(rs.getLong(1), rs.getLong(2)));
          });
    }
    return out;
  }

  static final String AT_PLACES = """
      SELECT d.series_id, d.version_id, d.reason
      FROM unnest(?::bigint[], ?::bigint[]) AS k(machine_id, version_id)
      JOIN judging_due d ON d.version_id = k.version_id
      JOIN series s ON s.id = d.series_id AND s.machine_id = k.machine_id
      WHERE d.due_since < ?""";

  /**
   * The due pairs measured at these (machine id, version id) places, marked before {@code before} (after
   * {@link #ofSeries} or {@link #adopt} in the same transaction: a crashed import's batches are due pairs by then).
   */
  List<Due> atPlaces(Collection<List<Long>> places, java.time.OffsetDateTime before) {
    return places.isEmpty() ? List.of() : jdbc.sql(AT_PLACES).params(places.stream().map(p -> p.get(0))
        .toArray(Long[]::new), places.stream().map(p -> p.get(1)).toArray(Long[]::new), before)
        .query(Due.class).list();
  }

  static final String OLDEST = """
      SELECT series_id, version_id, reason FROM judging_due ORDER BY due_since, series_id, version_id LIMIT ?""";

  List<Due> oldest(int limit) {
    return jdbc.sql(OLDEST).param(limit).query(Due.class).list();
  }

  static final String DONE = """
      DELETE FROM judging_due d USING unnest(?::bigint[], ?::bigint[]) AS k(series_id, version_id)
      WHERE d.series_id = k.series_id AND d.version_id = k.version_id""";

  void done(Collection<List<Long>> pairs) {
    if (!pairs.isEmpty()) {
      jdbc.sql(DONE).params(pairs.stream().map(p -> p.get(0)).toArray(Long[]::new),
          pairs.stream().map(p -> p.get(1)).toArray(Long[]::new)).update();
    }
  }
}
