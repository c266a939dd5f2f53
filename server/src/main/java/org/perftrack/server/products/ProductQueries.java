package org.perftrack.server.products;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * What the product page reads: its versions, and for every series the per-version value over the
 * most recent versions. Bounded by a window of versions so that the page costs the same with 20 or
 * 2,000 versions: one index probe range per series on {@code result (series_id, version_id)}.
 */
@Service
class ProductQueries {

  /** A version of the product, oldest first. */
  record Version(long id, String name) {}

  /** One series with its values over the window's versions (null where not measured), oldest first. */
  record SeriesTrend(long id, String benchmark, String metric, String unit, String direction, String machine,
      Double[] values) {}

  private final JdbcClient jdbc;

  ProductQueries(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  Optional<Long> productId(String name) {
    return jdbc.sql("SELECT id FROM product WHERE name = ?").param(name).query(Long.class).optional();
  }

  static final String ALL_VERSIONS = """
      SELECT id, name FROM version WHERE product_id = ? ORDER BY sort_key""";

  List<Version> versions(long productId) {
    return jdbc.sql(ALL_VERSIONS).param(productId).query(Version.class).list();
  }

  // One index-only probe range per series (result_series_version_median_idx, V30); several runs of one
  // version on one machine are folded into their median in Java.
  static final String TRENDS = """
      SELECT s.id, s.benchmark, s.metric, s.unit, s.direction, m.name AS machine,
             array_agg(r.version_id) FILTER (WHERE r.version_id IS NOT NULL) AS version_ids,
             array_agg(r.median) FILTER (WHERE r.version_id IS NOT NULL) AS vals
      FROM series s
      JOIN machine m ON m.id = s.machine_id
      LEFT JOIN result r ON r.series_id = s.id AND r.version_id = ANY (?)
      WHERE s.product_id = ?
      GROUP BY s.id, m.name
      ORDER BY s.benchmark, s.metric, m.name""";

  /** Every series of the product with its values at {@code window} (versions in order). */
  List<SeriesTrend> trends(long productId, List<Version> window) {
    Map<Long, Integer> position = new HashMap<>();
    Long[] ids = new Long[window.size()];
    for (int i = 0; i < window.size(); i++) {
      position.put(window.get(i).id(), i);
      ids[i] = window.get(i).id();
    }
    List<SeriesTrend> trends = new ArrayList<>();
    jdbc.sql(TRENDS).params(ids, productId).query((ResultSet rs) -> {
      List<List<Double>> perVersion = new ArrayList<>(Collections.nCopies(window.size(), null));
      Object[] versionIds = objects(rs.getArray("version_ids"));
      Object[] vals = objects(rs.getArray("vals"));
      for (int i = 0; i < versionIds.length; i++) {
        int at = position.get(((Number) versionIds[i]).longValue());
        if (perVersion.get(at) == null) {
          perVersion.set(at, new ArrayList<>(1));
        }
        perVersion.get(at).add(((Number) vals[i]).doubleValue());
      }
      trends.add(new SeriesTrend(rs.getLong("id"), rs.getString("benchmark"), rs.getString("metric"),
          rs.getString("unit"), rs.getString("direction"), rs.getString("machine"), medians(perVersion)));
    });
    return trends;
  }

  private static Double[] medians(List<List<Double>> perVersion) {
    Double[] values = new Double[perVersion.size()];
    for (int i = 0; i < values.length; i++) {
      List<Double> v = perVersion.get(i);
      if (v != null) {
        Collections.sort(v);
        int n = v.size();
        values[i] = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
      }
    }
    return values;
  }

  private static Object[] objects(Array array) throws SQLException {
    return array == null ? new Object[0] : (Object[]) array.getArray();
  }
}
