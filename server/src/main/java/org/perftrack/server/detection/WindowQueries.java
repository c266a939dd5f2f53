package org.perftrack.server.detection;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Reads the window detection needs: for each series, the versions just before and from the
 * changed version on, through {@code detection_point}'s (series, sort_key) index, so the cost
 * depends on the window and not on how long the series or the database has grown.
 */
@Repository
class WindowQueries {

  private final JdbcClient jdbc;

  WindowQueries(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * Serialises detection per series: two uploads touching one series must not both create the same
   * step. NO KEY UPDATE does not conflict with the key-share locks the result inserts hold; taking
   * the locks in id order keeps two runs from deadlocking.
   */
  static final String LOCK_SERIES = """
      SELECT id FROM series WHERE id = ANY(?::bigint[]) ORDER BY id FOR NO KEY UPDATE""";

  void lockSeries(List<Long> seriesIds) {
    jdbc.sql(LOCK_SERIES).param(seriesIds.toArray(Long[]::new)).query(Long.class).list();
  }

  static final String SAMPLES = """
      SELECT series_id, samples::text AS samples, n, mean, median, stddev FROM result
      WHERE series_id = ANY(?::bigint[]) AND version_id = ?
      ORDER BY series_id, run_id""";

  static final String UPSERT_POINTS = """
      INSERT INTO detection_point (series_id, sort_key, version_id, level, within_se, positive, sample_count)
      SELECT u.series_id, v.sort_key, v.id, u.level, u.within_se, u.positive, u.sample_count
      FROM unnest(?::bigint[], ?::float8[], ?::float8[], ?::boolean[], ?::integer[])
           AS u(series_id, level, within_se, positive, sample_count)
      CROSS JOIN version v WHERE v.id = ?
      ON CONFLICT (series_id, sort_key) DO UPDATE
      SET level = EXCLUDED.level, within_se = EXCLUDED.within_se, positive = EXCLUDED.positive,
          sample_count = EXCLUDED.sample_count""";

  /** Summarises the samples of every run of this version in these series into {@code detection_point}. */
  void addPoints(List<Long> seriesIds, long versionId) {
    Map<Long, List<double[]>> samples = new LinkedHashMap<>();
    Map<Long, List<Summary>> summaries = new LinkedHashMap<>();
    jdbc.sql(SAMPLES).params(seriesIds.toArray(Long[]::new), versionId).query((ResultSet rs) -> {
      double[] values = parse(rs.getString("samples"));
      samples.computeIfAbsent(rs.getLong("series_id"), k -> new ArrayList<>()).add(values);
      if (values.length == 0) {
        summaries.computeIfAbsent(rs.getLong("series_id"), k -> new ArrayList<>()).add(summaryOnly(rs));
      }
    });
    int n = samples.size();
    Long[] ids = new Long[n];
    Double[] levels = new Double[n];
    Double[] se = new Double[n];
    Boolean[] positive = new Boolean[n];
    Integer[] counts = new Integer[n];
    int i = 0;
    for (Map.Entry<Long, List<double[]>> e : samples.entrySet()) {
      double[] all = concat(e.getValue());
      Summary s = all.length > 0 ? Summary.of(all) : pooled(summaries.get(e.getKey()));
      ids[i] = e.getKey();
      levels[i] = s.level();
      se[i] = Double.isNaN(s.withinSe()) ? null : s.withinSe();
      counts[i] = s.count();
      positive[i++] = s.positive();
    }
    jdbc.sql(UPSERT_POINTS).params(ids, levels, se, positive, counts, versionId).update();
  }

  /**
   * The point of a result that carries only a tool's statistics (no raw samples): its median, or mean, as the
   * level; the standard error of log(level) from its stddev, doubled because a stddev is not robust to the
   * outliers the trimmed mean and MAD of raw samples shrug off; and a count of 0, so that the test treats
   * the spread as unknown-quality (its degrees of freedom come from the prior). Raw samples always win.
   */
  static Summary summaryOnly(ResultSet rs) throws SQLException {
    double mean = rs.getDouble("mean");
    double median = rs.getDouble("median");
    double level = rs.wasNull() ? mean : median;
    double stddev = rs.getDouble("stddev");
    boolean noSpread = rs.wasNull();
    int n = rs.getInt("n");
    double se = noSpread || level <= 0 || n < 2 ? Double.NaN : 2 * stddev / level / Math.sqrt(n);
    return new Summary(level, se, level > 0, 0);
  }

  /** Several summary-only runs of one version: the mean of their levels, the largest standard error. */
  private static Summary pooled(List<Summary> runs) {
    double level = runs.stream().mapToDouble(Summary::level).average().orElseThrow();
    double se = runs.stream().mapToDouble(Summary::withinSe).filter(v -> !Double.isNaN(v)).max().orElse(Double.NaN);
    return new Summary(level, se, runs.stream().allMatch(Summary::positive), 0);
  }

  record Meta(long id, String product, String machine, String benchmark, String metric, String unit,
      String direction) {}

  static final String META = """
      SELECT s.id, p.name AS product, m.name AS machine, s.benchmark, s.metric, s.unit, s.direction
      FROM series s JOIN product p ON p.id = s.product_id JOIN machine m ON m.id = s.machine_id
      WHERE s.id = ANY(?::bigint[])""";

  static final String WINDOW = """
      SELECT w.series_id, w.version_id, v.name AS version, w.level, w.within_se, w.positive, w.sample_count
      FROM unnest(?::bigint[]) AS s(id)
      CROSS JOIN (SELECT sort_key FROM version WHERE id = ?) AS c
      CROSS JOIN LATERAL (
        (SELECT p.series_id, p.sort_key, p.version_id, p.level, p.within_se, p.positive, p.sample_count
          FROM detection_point p
          WHERE p.series_id = s.id AND p.sort_key < c.sort_key ORDER BY p.sort_key DESC LIMIT ?)
        UNION ALL
        (SELECT p.series_id, p.sort_key, p.version_id, p.level, p.within_se, p.positive, p.sample_count
          FROM detection_point p
          WHERE p.series_id = s.id AND p.sort_key >= c.sort_key ORDER BY p.sort_key LIMIT ?)
      ) AS w
      JOIN version v ON v.id = w.version_id
      ORDER BY w.series_id, w.sort_key""";

  /** The windows of these series around one version: {@code side} versions before, {@code side + 1} from it on. */
  Map<Long, SeriesWindow> windows(List<Long> seriesIds, long versionId, int side) {
    Long[] ids = seriesIds.toArray(Long[]::new);
    Map<Long, Meta> meta = new HashMap<>();
    jdbc.sql(META).param(ids).query(Meta.class).list().forEach(m -> meta.put(m.id(), m));
    Map<Long, List<Point>> points = new LinkedHashMap<>();
    Map<Long, Map<String, Long>> versionIds = new HashMap<>();
    jdbc.sql(WINDOW).params(ids, versionId, side, side + 1).query((ResultSet rs) -> {
      long series = rs.getLong("series_id");
      String version = rs.getString("version");
      double se = rs.getDouble("within_se");
      se = rs.wasNull() ? Double.NaN : se;
      Summary summary = new Summary(rs.getDouble("level"), se, rs.getBoolean("positive"),
          rs.getInt("sample_count"));
      points.computeIfAbsent(series, k -> new ArrayList<>()).add(Point.summarized(version, summary));
      versionIds.computeIfAbsent(series, k -> new HashMap<>()).put(version, rs.getLong("version_id"));
    });
    Map<Long, SeriesWindow> out = new LinkedHashMap<>();
    points.forEach((series, list) -> {
      Meta m = meta.get(series);
      out.put(series, new SeriesWindow(series, m.product(), m.machine(), m.benchmark(), m.metric(), m.unit(),
          m.direction(), list, versionIds.get(series)));
    });
    return out;
  }

  static final String BATCH_RUNS_OF_BATCH = """
      SELECT r.series_id, ru.batch::text AS batch, v.name AS version, r.samples::text AS samples
      FROM run ru JOIN result r ON r.run_id = ru.id JOIN version v ON v.id = r.version_id
      WHERE ru.batch = ? AND r.series_id = ANY(?::bigint[])
      ORDER BY r.series_id, ru.received_at, ru.id""";

  /** The runs of one interleaved session (batch) in these series, with their raw samples in round order. */
  Map<Long, List<BatchRun>> batchRuns(List<Long> seriesIds, java.util.UUID batch) {
    Map<Long, List<BatchRun>> out = new HashMap<>();
    if (batch == null || seriesIds.isEmpty()) {
      return out;
    }
    jdbc.sql(BATCH_RUNS_OF_BATCH).params(batch, seriesIds.toArray(Long[]::new)).query((ResultSet rs) -> {
      out.computeIfAbsent(rs.getLong("series_id"), k -> new ArrayList<>()).add(batchRun(rs));
    });
    return out;
  }

  static final String BATCH_RUNS_OF_VERSIONS = """
      SELECT r.series_id, ru.batch::text AS batch, v.name AS version, r.samples::text AS samples
      FROM result r JOIN run ru ON ru.id = r.run_id JOIN version v ON v.id = r.version_id
      WHERE r.series_id = ANY(?::bigint[]) AND r.version_id = ANY(?::bigint[]) AND ru.batch IS NOT NULL
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
    return new BatchRun(rs.getString("batch"), rs.getString("version"), parse(rs.getString("samples")));
  }

  static double[] concat(List<double[]> arrays) {
    return arrays.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
  }

  /**
   * Parses PostgreSQL's text form of a float8[] ({@code {18.1,17.9}}): several times faster than
   * the driver's generic array, which boxes every element, and the window holds thousands.
   */
  static double[] parse(String text) {
    String body = text.substring(1, text.length() - 1);
    if (body.isEmpty()) {
      return new double[0];
    }
    int n = 1;
    for (int i = 0; i < body.length(); i++) {
      n += body.charAt(i) == ',' ? 1 : 0;
    }
    double[] out = new double[n];
    int start = 0;
    for (int i = 0; i < n; i++) {
      int end = body.indexOf(',', start);
      out[i] = Double.parseDouble(body.substring(start, end < 0 ? body.length() : end));
      start = end + 1;
    }
    return out;
  }

  static double[] doubles(Array array) throws SQLException {
    Object[] boxed = (Object[]) array.getArray();
    double[] values = new double[boxed.length];
    for (int i = 0; i < boxed.length; i++) {
      values[i] = ((Number) boxed[i]).doubleValue();
    }
    return values;
  }
}
