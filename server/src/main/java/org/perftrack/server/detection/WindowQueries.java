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

  static final String ADD_POINTS = """
      INSERT INTO detection_point (series_id, sort_key, version_id)
      SELECT s.id, v.sort_key, v.id FROM unnest(?::bigint[]) AS s(id), version v WHERE v.id = ?
      ON CONFLICT DO NOTHING""";

  /** Records that these series now have the version (idempotent). */
  void addPoints(List<Long> seriesIds, long versionId) {
    jdbc.sql(ADD_POINTS).params(seriesIds.toArray(Long[]::new), versionId).update();
  }

  record Meta(long id, String product, String machine, String benchmark, String metric, String unit,
      String direction) {}

  static final String META = """
      SELECT s.id, p.name AS product, m.name AS machine, s.benchmark, s.metric, s.unit, s.direction
      FROM series s JOIN product p ON p.id = s.product_id JOIN machine m ON m.id = s.machine_id
      WHERE s.id = ANY(?::bigint[])""";

  static final String WINDOW = """
      SELECT w.series_id, w.version_id, v.name AS version, r.samples
      FROM unnest(?::bigint[]) AS s(id)
      CROSS JOIN (SELECT sort_key FROM version WHERE id = ?) AS c
      CROSS JOIN LATERAL (
        (SELECT p.series_id, p.sort_key, p.version_id FROM detection_point p
          WHERE p.series_id = s.id AND p.sort_key < c.sort_key ORDER BY p.sort_key DESC LIMIT ?)
        UNION ALL
        (SELECT p.series_id, p.sort_key, p.version_id FROM detection_point p
          WHERE p.series_id = s.id AND p.sort_key >= c.sort_key ORDER BY p.sort_key LIMIT ?)
      ) AS w
      JOIN result r ON r.series_id = w.series_id AND r.version_id = w.version_id
      JOIN version v ON v.id = w.version_id
      ORDER BY w.series_id, w.sort_key, r.run_id""";

  /** The windows of these series around one version: {@code side} versions before, {@code side + 1} from it on. */
  Map<Long, SeriesWindow> windows(List<Long> seriesIds, long versionId, int side) {
    Long[] ids = seriesIds.toArray(Long[]::new);
    Map<Long, Meta> meta = new HashMap<>();
    jdbc.sql(META).param(ids).query(Meta.class).list().forEach(m -> meta.put(m.id(), m));
    Map<Long, Map<String, List<double[]>>> samples = new LinkedHashMap<>();
    Map<Long, Map<String, Long>> versionIds = new HashMap<>();
    jdbc.sql(WINDOW).params(ids, versionId, side, side + 1).query((ResultSet rs) -> {
      long series = rs.getLong("series_id");
      String version = rs.getString("version");
      samples.computeIfAbsent(series, k -> new LinkedHashMap<>())
          .computeIfAbsent(version, k -> new ArrayList<>()).add(doubles(rs.getArray("samples")));
      versionIds.computeIfAbsent(series, k -> new HashMap<>()).put(version, rs.getLong("version_id"));
    });
    Map<Long, SeriesWindow> out = new LinkedHashMap<>();
    samples.forEach((series, byVersion) -> {
      Meta m = meta.get(series);
      List<Point> points = new ArrayList<>();
      byVersion.forEach((version, arrays) -> points.add(Point.of(version, concat(arrays))));
      out.put(series, new SeriesWindow(series, m.product(), m.machine(), m.benchmark(), m.metric(), m.unit(),
          m.direction(), points, versionIds.get(series)));
    });
    return out;
  }

  static double[] concat(List<double[]> arrays) {
    return arrays.stream().flatMapToDouble(java.util.Arrays::stream).toArray();
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
