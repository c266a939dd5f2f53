package org.perftrack.server.products;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perftrack.server.db.Rows;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.PointReads;
import org.perftrack.server.detection.Regressions;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * What the product page reads: its versions, its series, and for one page of them the per-version value
 * over the most recent versions. The values are detection's per-version levels (trimmed means, the numbers
 * regressions and comparisons quote), read from {@code detection_point}, whose (series, sort_key)
 * key makes the window one short index-only range per series: the page costs the same with 20 or
 * 2,000 versions.
 */
@Service
class ProductQueries {

  /** A version of the product, oldest first. */
  record Version(long id, String name, String sortKey) {}

  /** One series with its values over the window's versions (null where not measured), oldest first. */
  record SeriesTrend(long id, String benchmark, String metric, String unit, Direction direction, String machine,
      Double[] values) {}

  private final JdbcClient jdbc;
  private final PointReads pointReads;
  private final Regressions regressions;

  ProductQueries(JdbcClient jdbc, PointReads pointReads, Regressions regressions) {
    this.jdbc = jdbc;
    this.pointReads = pointReads;
    this.regressions = regressions;
  }

  Optional<Long> productId(String name) {
    return jdbc.sql("SELECT id FROM product WHERE name = ? AND deletion_id IS NULL").param(name).query(Long.class).optional();
  }

  static final String RECENT_VERSIONS = """
      SELECT id, name, sort_key FROM version WHERE product_id = ? AND deletion_id IS NULL
        AND NOT version_of_deleted_machines(id)
      ORDER BY sort_key DESC LIMIT ?""";

  /** The newest {@code n} versions, oldest first. */
  List<Version> recentVersions(long productId, int n) {
    List<Version> newest = new ArrayList<>(jdbc.sql(RECENT_VERSIONS).params(productId, n).query(Version.class).list());
    java.util.Collections.reverse(newest);
    return newest;
  }

  /**
   * The product's count of versions not deleted, kept by a trigger on version (V29) less its deleted ones (V43) and those
   * only deleted machines measured (V49): no read grows with history.
   */
  long versionCount(long productId) {
    return jdbc.sql("SELECT live_version_count(?)").param(productId).query(Long.class).single();
  }

  /** A series of the product, without its values. */
  record Series(long id, String benchmark, String metric, String unit, Direction direction, String machine) {}

  /** Every series of the product (machines × metrics, not history), in the page's order. */
  static final String SERIES = """
      SELECT s.id, s.benchmark, s.metric, s.unit, s.direction, m.name AS machine
      FROM series s JOIN machine m ON m.id = s.machine_id AND m.deletion_id IS NULL
      WHERE s.product_id = ?
      ORDER BY s.benchmark, s.metric, m.name""";

  List<Series> series(long productId) {
    return jdbc.sql(SERIES).param(productId).query(Rows.of(Series.class)).list();
  }

  /**
   * These series with their values at {@code window} (versions in order, not empty), in the order given;
   * those in {@code latestOnly} with their newest value in the window only (the others null).
   */
  List<SeriesTrend> trends(List<Series> series, java.util.Set<Long> latestOnly, List<Version> window) {
    if (series.isEmpty()) {
      return List.of();
    }
    Map<Long, Integer> position = new HashMap<>();
    for (int i = 0; i < window.size(); i++) {
      position.put(window.get(i).id(), i);
    }
    Long[] ids = series.stream().map(Series::id).toArray(Long[]::new);
    Integer[] limits = series.stream().map(s -> latestOnly.contains(s.id()) ? 1 : window.size()).toArray(Integer[]::new);
    Map<Long, Double[]> values = new HashMap<>();
    pointReads.newest(ids, limits, window.get(0).sortKey()).forEach((id, newer) -> {
      Double[] v = new Double[window.size()];
      for (int i = 0; i < newer.versionIds().length; i++) {
        Integer at = position.get(newer.versionIds()[i]);
        if (at != null) {
          v[at] = newer.levels()[i];
        }
      }
      values.put(id, v);
    });
    return series.stream().map(s -> new SeriesTrend(s.id(), s.benchmark(), s.metric(), s.unit(), s.direction(),
        s.machine(), values.getOrDefault(s.id(), new Double[window.size()]))).toList();
  }

  /** Open regressions per benchmark and metric (key benchmark NUL metric), for the rows' markers. */
  Map<String, Long> openRegressions(long productId) {
    return regressions.openPerBenchmark(productId);
  }

}
