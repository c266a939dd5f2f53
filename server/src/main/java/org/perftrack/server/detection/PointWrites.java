package org.perftrack.server.detection;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Writes detection points: an upload's version (keeping the series' tails), re-judged (series, version) pairs, and
 * an import's new points; each sets the written series' stamps and publishes {@link PointsWritten}.
 */
@Repository
class PointWrites {

  private final JdbcClient jdbc;
  private final javax.sql.DataSource dataSource;
  private final SeriesLocks locks;
  private final SeriesStamps stamps;
  private final SeriesTails tails;
  private final org.springframework.context.ApplicationEventPublisher events;

  PointWrites(JdbcClient jdbc, javax.sql.DataSource dataSource, SeriesLocks locks, SeriesStamps stamps,
      SeriesTails tails, org.springframework.context.ApplicationEventPublisher events) {
    this.jdbc = jdbc;
    this.events = events;
    this.dataSource = dataSource;
    this.locks = locks;
    this.stamps = stamps;
    this.tails = tails;
  }

  static final String SAMPLES = """
      SELECT series_id, samples::text AS samples, n, mean, median, stddev FROM result
      WHERE series_id = ANY(?::bigint[]) AND version_id = ?
      ORDER BY series_id, run_id""";

  /**
   * The point of every series for this version, from the samples of all its stored runs (read back: used when
   * the version had runs before, and by imports).
   */
  Map<Long, VersionLevel> readPoints(List<Long> seriesIds, long versionId) {
    Map<Long, List<double[]>> samples = new LinkedHashMap<>();
    Map<Long, List<VersionLevel>> summaries = new LinkedHashMap<>();
    if (seriesIds.isEmpty()) {
      return Map.of();
    }
    jdbc.sql(SAMPLES).params(seriesIds.toArray(Long[]::new), versionId).query((ResultSet rs) -> {
      double[] values = RunPoints.parse(rs.getString("samples"));
      samples.computeIfAbsent(rs.getLong("series_id"), k -> new ArrayList<>()).add(values);
      if (values.length == 0) {
        double median = rs.getDouble("median");
        Double med = rs.wasNull() ? null : median;
        double stddev = rs.getDouble("stddev");
        Double sd = rs.wasNull() ? null : stddev;
        summaries.computeIfAbsent(rs.getLong("series_id"), k -> new ArrayList<>())
            .add(RunPoints.summaryOnly(rs.getInt("n"), rs.getDouble("mean"), med, sd));
      }
    });
    Map<Long, VersionLevel> out = new LinkedHashMap<>();
    for (Map.Entry<Long, List<double[]>> e : samples.entrySet()) {
      double[] all = RunPoints.concat(e.getValue());
      out.put(e.getKey(), all.length > 0 ? VersionLevel.of(all) : RunPoints.pooled(summaries.get(e.getKey())));
    }
    return out;
  }

  private static final String POINTS_OF_VERSION = """
      INSERT INTO detection_point (series_id, sort_key, version_id, level, within_se, positive, sample_count)
      SELECT u.series_id, ?, ?, u.level, u.within_se, u.positive, u.sample_count
      FROM unnest(?::bigint[], ?::float8[], ?::float8[], ?::boolean[], ?::integer[])
           AS u(series_id, level, within_se, positive, sample_count)""";

  /**
   * Sets the stamps of the series just written to this transaction's and returns it (no row when none was written).
   * A stamp that is this transaction's already is left as it is: a transaction that writes the same series many
   * times (a session's runs judged one after the other) would otherwise leave a new version of its row each time,
   * and every later read of it would step over them all.
   */
  private static final String STAMP_WRITTEN = """
      , stamped AS (INSERT INTO detection_stamp (series_id, stamp) SELECT series_id, txid_current() FROM written
        ON CONFLICT (series_id) DO UPDATE SET stamp = EXCLUDED.stamp WHERE detection_stamp.stamp <> EXCLUDED.stamp)
      SELECT txid_current() FROM written LIMIT 1""";

  /**
   * Writes the points of one version and sets their series' stamps ({@link SeriesStamps#STAMP}), in one statement;
   * returns the stamp. Without {@code ON CONFLICT} when {@code fresh}: the caller holds the series' locks and saw no
   * point at the version's sort key in any of them.
   */
  static final String UPSERT_POINTS = "WITH written AS (" + POINTS_OF_VERSION + """

      ON CONFLICT (series_id, sort_key) DO UPDATE
      SET level = EXCLUDED.level, within_se = EXCLUDED.within_se, positive = EXCLUDED.positive,
          sample_count = EXCLUDED.sample_count
      RETURNING series_id)
      """ + STAMP_WRITTEN;

  static final String INSERT_POINTS = "WITH written AS (" + POINTS_OF_VERSION + """

      RETURNING series_id)
      """ + STAMP_WRITTEN;

  /**
   * As {@link #INSERT_POINTS} when every series has a stamp already: an update in place (an upsert's conflict
   * first locks each row, one more WAL record a row).
   */
  static final String INSERT_POINTS_STAMPED = "WITH written AS (" + POINTS_OF_VERSION + """

      RETURNING series_id),
      stamped AS (UPDATE detection_stamp d SET stamp = txid_current() FROM written w
        WHERE d.series_id = w.series_id AND d.stamp <> txid_current())
      SELECT txid_current() FROM written LIMIT 1""";

  /**
   * Writes the points of one version, in one statement, and keeps the tails of their series (with the stamp this
   * transaction gave them): what {@link WindowRead#around} read, with the new points in place. Before commit: were the
   * transaction rolled back, the series' stamps would still be the old ones and these tails would not be used.
   */
  void writePoints(Map<Long, VersionLevel> points, VersionRef version, Map<Long, WindowRead.Around> read,
      boolean fresh) {
    boolean stamped = read.values().stream().allMatch(WindowRead.Around::stamped);
    Long stamp = insertPoints(points, version,
        !fresh ? UPSERT_POINTS : stamped ? INSERT_POINTS_STAMPED : INSERT_POINTS);
    if (!points.isEmpty()) {
      events.publishEvent(new PointsWritten(Set.copyOf(points.keySet())));
    }
    read.forEach((series, a) -> {
      VersionLevel p = points.get(series);
      SeriesTail t = a.tail();
      if (p == null) {
        if (t != null && t.stamp() != 0) {
          tails.remember(series, t);
        }
      } else if (stamp != null && t != null) {
        tails.remember(series,
            t.with(version, VersionPoint.summarized(version.name(), p), stamp, SeriesTails.tailKeep(a.side())));
      } else {
        tails.forget(series);
      }
    });
  }

  private Long insertPoints(Map<Long, VersionLevel> points, VersionRef version, String statement) {
    if (points.isEmpty()) {
      return null;
    }
    int n = points.size();
    Long[] ids = new Long[n];
    Double[] levels = new Double[n];
    Double[] se = new Double[n];
    Boolean[] positive = new Boolean[n];
    Integer[] counts = new Integer[n];
    int i = 0;
    for (Map.Entry<Long, VersionLevel> e : points.entrySet()) {
      VersionLevel s = e.getValue();
      ids[i] = e.getKey();
      levels[i] = s.level();
      se[i] = Double.isNaN(s.withinSe()) ? null : s.withinSe();
      counts[i] = s.count();
      positive[i++] = s.positive();
    }
    List<Long> stamps = jdbc.sql(statement)
        .params(version.sortKey(), version.id(), ids, levels, se, positive, counts).query(Long.class).list();
    return stamps.isEmpty() ? null : stamps.get(0);
  }

  static final String PAIR_SAMPLES = """
      SELECT r.series_id, r.version_id, r.samples::text AS samples, r.n, r.mean, r.median, r.stddev
      FROM unnest(?::bigint[], ?::bigint[]) AS k(series_id, version_id)
      JOIN result r ON r.series_id = k.series_id AND r.version_id = k.version_id
      ORDER BY r.series_id, r.version_id, r.run_id""";

  static final String UPSERT_PAIR_POINTS = """
      INSERT INTO detection_point (series_id, sort_key, version_id, level, within_se, positive, sample_count)
      SELECT * FROM unnest(?::bigint[], ?::text[], ?::bigint[], ?::float8[], ?::float8[], ?::boolean[], ?::integer[])
      ON CONFLICT (series_id, sort_key) DO UPDATE
      SET level = EXCLUDED.level, within_se = EXCLUDED.within_se, positive = EXCLUDED.positive,
          sample_count = EXCLUDED.sample_count""";

  /** The points of these (series, version) pairs from all their stored runs: one read, one write. */
  void writePoints(java.util.Collection<List<Long>> pairs, Map<Long, VersionRef> versions) {
    if (pairs.isEmpty()) {
      return;
    }
    Long[] series = pairs.stream().map(p -> p.get(0)).toArray(Long[]::new);
    Long[] versionIds = pairs.stream().map(p -> p.get(1)).toArray(Long[]::new);
    Map<List<Long>, List<double[]>> samples = new LinkedHashMap<>();
    Map<List<Long>, List<VersionLevel>> summaries = new HashMap<>();
    jdbc.sql(PAIR_SAMPLES).params(series, versionIds).query((ResultSet rs) -> {
      List<Long> key = List.of(rs.getLong("series_id"), rs.getLong("version_id"));
      double[] values = RunPoints.parse(rs.getString("samples"));
      samples.computeIfAbsent(key, k -> new ArrayList<>()).add(values);
      if (values.length == 0) {
        double median = rs.getDouble("median");
        Double med = rs.wasNull() ? null : median;
        double stddev = rs.getDouble("stddev");
        Double sd = rs.wasNull() ? null : stddev;
        summaries.computeIfAbsent(key, k -> new ArrayList<>())
            .add(RunPoints.summaryOnly(rs.getInt("n"), rs.getDouble("mean"), med, sd));
      }
    });
    int n = samples.size();
    Long[] ids = new Long[n];
    String[] keys = new String[n];
    Long[] vids = new Long[n];
    Double[] levels = new Double[n];
    Double[] se = new Double[n];
    Boolean[] positive = new Boolean[n];
    Integer[] counts = new Integer[n];
    int i = 0;
    for (Map.Entry<List<Long>, List<double[]>> e : samples.entrySet()) {
      double[] all = RunPoints.concat(e.getValue());
      VersionLevel s = all.length > 0 ? VersionLevel.of(all) : RunPoints.pooled(summaries.get(e.getKey()));
      ids[i] = e.getKey().get(0);
      vids[i] = e.getKey().get(1);
      keys[i] = versions.get(vids[i]).sortKey();
      levels[i] = s.level();
      se[i] = Double.isNaN(s.withinSe()) ? null : s.withinSe();
      counts[i] = s.count();
      positive[i++] = s.positive();
    }
    if (n > 0) {
      jdbc.sql(UPSERT_PAIR_POINTS).params(ids, keys, vids, levels, se, positive, counts).update();
      stamps.stamp(java.util.Arrays.asList(ids));
      events.publishEvent(new PointsWritten(Set.copyOf(java.util.Arrays.asList(ids))));
    }
  }

  static final String EXISTING_POINTS = """
      SELECT p.series_id, p.version_id FROM unnest(?::bigint[], ?::text[], ?::text[]) AS k(series_id, low, high)
      JOIN detection_point p ON p.series_id = k.series_id AND p.sort_key >= k.low AND p.sort_key <= k.high""";

  /**
   * Writes the points of (series, version) pairs from the values just stored for them, except where the pair has
   * a point already (it had runs before): those are returned, to be read back from all their runs. The series are
   * locked first (as an upload's detection locks them), so no other transaction can add a point of these series
   * before this one commits, and the new points go in with one binary COPY.
   */
  Set<List<Long>> writeNewPoints(Map<List<Long>, List<StoredRun.Values>> values, Map<Long, VersionRef> versions) {
    Set<List<Long>> existing = new java.util.HashSet<>();
    if (values.isEmpty()) {
      return existing;
    }
    locks.lockSeries(values.keySet().stream().map(k -> k.get(0)).distinct().toList());
    // per series one index range over the batch's versions (not one probe per pair: a batch has 20,000 pairs)
    Map<Long, String[]> ranges = new HashMap<>();
    values.keySet().forEach(pair -> {
      String key = versions.get(pair.get(1)).sortKey();
      ranges.merge(pair.get(0), new String[] {key, key}, (a, b) -> new String[] {
          a[0].compareTo(b[0]) <= 0 ? a[0] : b[0], a[1].compareTo(b[1]) >= 0 ? a[1] : b[1]});
    });
    Long[] series = ranges.keySet().toArray(Long[]::new);
    String[] lows = new String[series.length];
    String[] highs = new String[series.length];
    for (int i = 0; i < series.length; i++) {
      lows[i] = ranges.get(series[i])[0];
      highs[i] = ranges.get(series[i])[1];
    }
    jdbc.sql(EXISTING_POINTS).params(series, lows, highs).query((ResultSet rs) -> {
      List<Long> pair = List.of(rs.getLong(1), rs.getLong(2));
      if (values.containsKey(pair)) {
        existing.add(pair);
      }
    });
    // the rows go to PostgreSQL while the next ones are summarised (one chunk in memory)
    java.sql.Connection con = org.springframework.jdbc.datasource.DataSourceUtils.getConnection(dataSource);
    org.perftrack.server.db.BinaryCopy rows = null;
    try {
      rows = org.perftrack.server.db.BinaryCopy.streaming(con, COPY_POINTS);
      // in index order (series, then version order): each leaf page of the key is filled in one visit, not revisited
      // by every version of a batch (a batch holds versions × series in run order)
      List<Map.Entry<List<Long>, List<StoredRun.Values>>> inOrder = new ArrayList<>(values.entrySet());
      inOrder.sort(Map.Entry.<List<Long>, List<StoredRun.Values>>comparingByKey(java.util.Comparator
          .<List<Long>>comparingLong(pair -> pair.get(0)).thenComparing(pair -> versions.get(pair.get(1)).sortKey())));
      for (Map.Entry<List<Long>, List<StoredRun.Values>> e : inOrder) {
        List<Long> pair = e.getKey();
        if (existing.contains(pair)) {
          continue;
        }
        VersionLevel s = RunPoints.pointOfRuns(e.getValue());
        rows.row(7).int8(pair.get(0)).text(versions.get(pair.get(1)).sortKey()).int8(pair.get(1)).float8(s.level())
            .float8OrNull(s.withinSe()).bool(s.positive()).integer(s.count());
      }
      rows.finish();
    } catch (SQLException | RuntimeException e) {
      if (rows != null) {
        rows.cancel();
      }
      throw new IllegalStateException("COPY of detection points failed", e);
    } finally {
      org.springframework.jdbc.datasource.DataSourceUtils.releaseConnection(con, dataSource);
    }
    if (rows.rows() > 0) {
      stamps.stamp(ranges.keySet()); // the series' kept tails are stale now
      events.publishEvent(new PointsWritten(Set.copyOf(ranges.keySet())));
    }
    return existing;
  }

  static final String COPY_POINTS = "COPY detection_point (series_id, sort_key, version_id, level, within_se, positive,"
      + " sample_count) FROM STDIN (FORMAT binary)";
}
