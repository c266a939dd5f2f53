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
      INSERT INTO judging_due (series_id, version_id, reason)
      SELECT * FROM unnest(?::bigint[], ?::bigint[], ?::text[])
      ON CONFLICT (series_id, version_id) DO UPDATE SET reason = coalesce(EXCLUDED.reason, judging_due.reason)""";

  void mark(Collection<List<Long>> pairs, String reason) {
    if (pairs.isEmpty()) {
      return;
    }
    List<List<Long>> sorted = new ArrayList<>(pairs); // one order for every writer: no deadlock between two
    sorted.sort(java.util.Comparator.comparing((List<Long> p) -> p.get(0)).thenComparing(p -> p.get(1)));
    String[] reasons = new String[sorted.size()];
    java.util.Arrays.fill(reasons, reason);
    jdbc.sql(MARK).params(sorted.stream().map(p -> p.get(0)).toArray(Long[]::new),
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

  static final String AT_PLACES = """
      SELECT d.series_id, d.version_id, d.reason
      FROM unnest(?::bigint[], ?::bigint[]) AS k(machine_id, version_id)
      JOIN judging_due d ON d.version_id = k.version_id
      JOIN series s ON s.id = d.series_id AND s.machine_id = k.machine_id""";

  /** The due pairs measured at these (machine id, version id) places. */
  List<Due> atPlaces(Collection<List<Long>> places) {
    return places.isEmpty() ? List.of() : jdbc.sql(AT_PLACES).params(places.stream().map(p -> p.get(0))
        .toArray(Long[]::new), places.stream().map(p -> p.get(1)).toArray(Long[]::new)).query(Due.class).list();
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
