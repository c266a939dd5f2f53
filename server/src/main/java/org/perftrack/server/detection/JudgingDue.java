package org.perftrack.server.detection;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The durable marker of data that changed and was not judged since ({@code judging_due}): written in the
 * transaction that changes the data, deleted by the one that judges it. A crash in between leaves the marker, so the
 * next start, upload or import of the series judges what would otherwise stay unjudged for good.
 */
@Repository
class JudgingDue {

  /** One (series, version) whose data changed; {@code reason} says why, for the history (null: new data). */
  record Due(long seriesId, long versionId, String reason) {}

  private final JdbcClient jdbc;

  JudgingDue(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String MARK = """
      INSERT INTO judging_due (series_id, version_id, reason, import_id)
      SELECT k.*, ? FROM unnest(?::bigint[], ?::bigint[], ?::text[]) AS k
      ON CONFLICT (series_id, version_id) DO UPDATE
        SET reason = coalesce(EXCLUDED.reason, judging_due.reason), import_id = EXCLUDED.import_id""";

  void mark(Collection<List<Long>> pairs, String reason) {
    mark(pairs, reason, null);
  }

  /** Marks the pairs due; {@code importId}: the import whose batch stored them, which judges them at its end. */
  void mark(Collection<List<Long>> pairs, String reason, java.util.UUID importId) {
    if (pairs.isEmpty()) {
      return;
    }
    List<List<Long>> sorted = new ArrayList<>(pairs); // one order for every writer: no deadlock between two
    sorted.sort(java.util.Comparator.comparing((List<Long> p) -> p.get(0)).thenComparing(p -> p.get(1)));
    String[] reasons = new String[sorted.size()];
    java.util.Arrays.fill(reasons, reason);
    jdbc.sql(MARK).params(importId, sorted.stream().map(p -> p.get(0)).toArray(Long[]::new),
        sorted.stream().map(p -> p.get(1)).toArray(Long[]::new), reasons).update();
  }

  static final String OF_SERIES = """
      SELECT series_id, version_id, reason FROM judging_due
      WHERE series_id = ANY(?::bigint[]) AND due_since <= now() - make_interval(secs => ?)""";

  /** The due pairs of these series marked at least {@code ageSeconds} ago. */
  List<Due> ofSeries(Collection<Long> seriesIds, long ageSeconds) {
    return seriesIds.isEmpty() ? List.of()
        : jdbc.sql(OF_SERIES).params(seriesIds.toArray(Long[]::new), ageSeconds).query(Due.class).list();
  }

  static final String OF_SERIES_LEFT = """
      SELECT series_id, version_id, reason FROM judging_due
      WHERE series_id = ANY(?::bigint[]) AND due_since < ? AND (import_id IS NULL OR import_id <> ALL(?::uuid[]))""";

  /**
   * The due pairs of these series marked by transactions that began before {@code before} (the database's clock),
   * but not by the imports {@code running}.
   */
  List<Due> ofSeries(Collection<Long> seriesIds, java.time.OffsetDateTime before, Collection<java.util.UUID> running) {
    return seriesIds.isEmpty() ? List.of() : jdbc.sql(OF_SERIES_LEFT).params(seriesIds.toArray(Long[]::new), before,
        running.toArray(java.util.UUID[]::new)).query(Due.class).list();
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
      WHERE d.due_since < ? AND (d.import_id IS NULL OR d.import_id <> ALL(?::uuid[]))""";

  /**
   * The due pairs measured at these (machine id, version id) places, marked before {@code before} but not by the
   * imports {@code running}.
   */
  List<Due> atPlaces(Collection<List<Long>> places, java.time.OffsetDateTime before,
      Collection<java.util.UUID> running) {
    return places.isEmpty() ? List.of() : jdbc.sql(AT_PLACES).params(places.stream().map(p -> p.get(0))
        .toArray(Long[]::new), places.stream().map(p -> p.get(1)).toArray(Long[]::new), before,
        running.toArray(java.util.UUID[]::new)).query(Due.class).list();
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
