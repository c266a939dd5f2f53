package org.perftrack.server.detection;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Detection's points (one level per series and version: the trimmed mean detection judged) as charts, pages and
 * imports read them: every read goes through {@code detection_point}'s (series, sort_key) key, so its cost follows
 * what is shown, not the history.
 */
@Repository
public class PointReads {

  private final JdbcClient jdbc;

  PointReads(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** A version's level in a series. */
  public record Level(String version, double level) {}

  /** A version a series has a point at: its sort key and id. */
  public record Key(String sortKey, long versionId) {}

  static final String LEVELS = """
      SELECT v.name AS version, dp.level
      FROM series s
      JOIN product p ON p.id = s.product_id
      JOIN machine m ON m.id = s.machine_id
      JOIN detection_point dp ON dp.series_id = s.id
      JOIN version v ON v.id = dp.version_id
      WHERE p.name = ? AND m.name = ? AND s.benchmark = ? AND s.metric = ?
      ORDER BY dp.sort_key""";

  /** Every level of a series, in version order. */
  public List<Level> levels(String product, String machine, String benchmark, String metric) {
    return jdbc.sql(LEVELS).params(product, machine, benchmark, metric).query(Level.class).list();
  }

  static final String OTHER_PRODUCTS = """
      SELECT DISTINCT p.name || '@' || v.name AS side, p.name, v.sort_key
      FROM series s
      JOIN product p ON p.id = s.product_id
      JOIN machine m ON m.id = s.machine_id
      JOIN detection_point dp ON dp.series_id = s.id
      JOIN version v ON v.id = dp.version_id
      WHERE p.name <> ? AND m.name = ? AND s.benchmark = ? AND s.metric = ?
      ORDER BY p.name, v.sort_key""";

  /** Every {@code product@version} of the other products with a point of this benchmark and metric on the machine. */
  public List<String> otherProductsMeasuring(String product, String machine, String benchmark, String metric) {
    return jdbc.sql(OTHER_PRODUCTS).params(product, machine, benchmark, metric)
        .query((rs, i) -> rs.getString("side")).list();
  }

  static final String LEVELS_OF_REGRESSION = """
      SELECT v.name AS version, dp.level
      FROM regression rg
      JOIN detection_point dp ON dp.series_id = rg.series_id
      JOIN version v ON v.id = dp.version_id
      WHERE rg.id = ?
      ORDER BY dp.sort_key""";

  /** Every level of a regression's series, in version order. */
  public List<Level> levelsOfRegression(long regressionId) {
    return jdbc.sql(LEVELS_OF_REGRESSION).param(regressionId).query(Level.class).list();
  }

  /** A series and the name of its newest version (by version order, never by upload time). */
  public record Newest(String machine, String benchmark, String metric, String version) {}

  static final String NEWEST_VERSION = """
      SELECT m.name AS machine, s.benchmark, s.metric,
             (SELECT v.name FROM version v WHERE v.id = (SELECT p.version_id FROM detection_point p
              WHERE p.series_id = s.id ORDER BY p.sort_key DESC LIMIT 1)) AS version
      FROM series s JOIN machine m ON m.id = s.machine_id
      WHERE s.id = ANY(?::bigint[])""";

  /** The newest version of each of these series. */
  public List<Newest> newestVersions(java.util.Collection<Long> seriesIds) {
    return jdbc.sql(NEWEST_VERSION).param(seriesIds.toArray(Long[]::new)).query(Newest.class).list();
  }

  static final String NEWEST_KEYS = """
      SELECT DISTINCT k.sort_key, k.version_id FROM unnest(?::bigint[]) AS s(id)
      CROSS JOIN LATERAL (SELECT dp.sort_key, dp.version_id FROM detection_point dp
                          WHERE dp.series_id = s.id AND dp.sort_key < ?
                          ORDER BY dp.sort_key DESC LIMIT ?) AS k
      ORDER BY k.sort_key DESC LIMIT ?""";

  /**
   * The newest versions (sort key and id) the series measured below {@code below} (a sort key), newest first:
   * the newest {@code limit} of each series, merged, so the cost follows the limit and the machines only.
   */
  public List<Key> newestKeys(List<Long> seriesIds, String below, int limit) {
    return jdbc.sql(NEWEST_KEYS).params(seriesIds.toArray(Long[]::new), below, limit, limit)
        .query((rs, i) -> new Key(rs.getString(1), rs.getLong(2))).list();
  }

  /**
   * The versions (x axis) these series measured in the range, in order, at most the given number: the product's
   * versions there (its sort-key index), each kept on the first series found to have a point at it (one probe of
   * detection_point's key per series until one has), rather than reading every series' levels.
   */
  static final String AXIS = """
      SELECT v.sort_key, v.id FROM version v
      WHERE v.product_id = ? AND v.sort_key >= ? AND v.sort_key <= ?
        AND EXISTS (SELECT 1 FROM unnest(?::bigint[]) AS s(id) JOIN detection_point dp
                    ON dp.series_id = s.id AND dp.sort_key = v.sort_key)
      ORDER BY v.sort_key LIMIT ?""";

  /** The product's versions in [{@code lo}, {@code hi}] that one of these series has a point at: sort key → id. */
  public Map<String, Long> axis(long productId, String lo, String hi, List<Long> seriesIds, int limit) {
    Map<String, Long> axis = new LinkedHashMap<>(); // in the database's order
    jdbc.sql(AXIS).params(productId, lo, hi, seriesIds.toArray(Long[]::new), limit).query((ResultSet rs) -> {
      axis.put(rs.getString(1), rs.getLong(2));
    });
    return axis;
  }

  /**
   * The versions these series measured around a range: the {@code margin} before {@code from}, those from
   * {@code from} to {@code to} (at most {@code most}) and the {@code margin} after {@code to}, per series three
   * short ranges of detection_point's (series, sort_key) key.
   */
  static final String AROUND = """
      SELECT DISTINCT k.sort_key, k.version_id FROM unnest(?::bigint[]) AS s(id)
      CROSS JOIN LATERAL (
        (SELECT dp.sort_key, dp.version_id FROM detection_point dp
         WHERE dp.series_id = s.id AND dp.sort_key < ? ORDER BY dp.sort_key DESC LIMIT ?)
        UNION ALL
        (SELECT dp.sort_key, dp.version_id FROM detection_point dp
         WHERE dp.series_id = s.id AND dp.sort_key >= ? AND dp.sort_key <= ? ORDER BY dp.sort_key LIMIT ?)
        UNION ALL
        (SELECT dp.sort_key, dp.version_id FROM detection_point dp
         WHERE dp.series_id = s.id AND dp.sort_key > ? ORDER BY dp.sort_key LIMIT ?)) AS k
      ORDER BY k.sort_key""";

  /** The keys of {@link #AROUND}, in version order. */
  public List<Key> around(List<Long> seriesIds, String from, String to, int margin, int most) {
    return jdbc.sql(AROUND).params(seriesIds.toArray(Long[]::new), from, margin, from, to, most, to, margin)
        .query((rs, i) -> new Key(rs.getString(1), rs.getLong(2))).list();
  }

  /** The count, median, lowest and highest level of one (series, span of versions), and its first and last key. */
  public record Span(int at, int n, double median, double lo, double hi, String firstPoint, String lastPoint) {}

  /** Per (series, segment): one short index-only range of detection_point's key, aggregated where it is read. */
  static final String SPANS = """
      SELECT b.i - 1 AS at, b.series_id, x.n, x.median, x.lo, x.hi, x.first_point, x.last_point
      FROM unnest(?::bigint[], ?::text[], ?::text[]) WITH ORDINALITY AS b(series_id, first, stop, i)
      CROSS JOIN LATERAL (SELECT count(*) AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY dp.level) AS median,
                                 min(dp.level) AS lo, max(dp.level) AS hi,
                                 min(dp.sort_key) AS first_point, max(dp.sort_key) AS last_point
                          FROM detection_point dp
                          WHERE dp.series_id = b.series_id AND dp.sort_key >= b.first COLLATE "C"
                            AND dp.sort_key < b.stop COLLATE "C") AS x""";

  /**
   * For each {@code i}: the points of series {@code series[i]} from sort key {@code firsts[i]} up to (not
   * including) {@code stops[i]}, summarised; {@code at} is {@code i}.
   */
  public List<Span> spans(Long[] series, String[] firsts, String[] stops) {
    return jdbc.sql(SPANS).params(series, firsts, stops).query((rs, i) -> new Span(rs.getInt("at"), rs.getInt("n"),
        rs.getDouble("median"), rs.getDouble("lo"), rs.getDouble("hi"), rs.getString("first_point"),
        rs.getString("last_point"))).list();
  }

  /** The newest levels of a series in a window: the versions' ids and levels, newest first. */
  public record Newer(long[] versionIds, double[] levels) {}

  /**
   * Per series asked for, its newest {@code n} levels from a sort key on, aggregated where they are read: one
   * short index-only range per series, no sort or grouping of (series × window) rows.
   */
  static final String TRENDS = """
      SELECT s.id, w.version_ids, w.vals
      FROM unnest(?::bigint[], ?::int[]) AS s(id, n)
      CROSS JOIN LATERAL (SELECT array_agg(k.version_id) AS version_ids, array_agg(k.level) AS vals
                          FROM (SELECT dp.version_id, dp.level FROM detection_point dp
                                WHERE dp.series_id = s.id AND dp.sort_key >= ?
                                ORDER BY dp.sort_key DESC LIMIT s.n) AS k) AS w""";

  /** The newest {@code limits[i]} levels of series {@code ids[i]} from {@code fromKey} on; none for no points. */
  public Map<Long, Newer> newest(Long[] ids, Integer[] limits, String fromKey) {
    Map<Long, Newer> out = new HashMap<>();
    jdbc.sql(TRENDS).params(ids, limits, fromKey).query((ResultSet rs) -> {
      Object[] versionIds = objects(rs.getArray("version_ids"));
      Object[] vals = objects(rs.getArray("vals"));
      long[] v = new long[versionIds.length];
      double[] l = new double[vals.length];
      for (int i = 0; i < versionIds.length; i++) {
        v[i] = ((Number) versionIds[i]).longValue();
        l[i] = ((Number) vals[i]).doubleValue();
      }
      out.put(rs.getLong("id"), new Newer(v, l));
    });
    return out;
  }

  private static Object[] objects(Array array) throws SQLException {
    return array == null ? new Object[0] : (Object[]) array.getArray();
  }

  /**
   * The newest {@code last} versions of a series: their keys from detection_point's (series, sort_key) index read
   * backwards, then their results by (series, version), so the read follows {@code last}, not the history.
   */
  static final String NEWEST_RESULTS = """
      SELECT v.name AS version, r.run_id, r.samples, r.n, r.min, r.median, r.mean, r.max, r.stddev
      FROM (SELECT dp.version_id, dp.sort_key FROM detection_point dp WHERE dp.series_id = ?
            ORDER BY dp.sort_key DESC LIMIT ?) AS k
      JOIN result r ON r.series_id = ? AND r.version_id = k.version_id
      JOIN version v ON v.id = k.version_id
      ORDER BY k.sort_key, r.run_id""";

  /**
   * The results of a series' newest {@code last} versions, in version then run order, to {@code rows}: columns
   * version, run_id, samples, n, min, median, mean, max, stddev.
   */
  public void newestResults(long seriesId, int last, RowCallbackHandler rows) {
    jdbc.sql(NEWEST_RESULTS).params(seriesId, last, seriesId).query(rows);
  }
}
