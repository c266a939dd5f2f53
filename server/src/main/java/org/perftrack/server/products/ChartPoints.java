package org.perftrack.server.products;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.series.SeriesQueries;
import org.perftrack.server.series.SeriesQueries.Point;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The JSON the series chart fetches: every version of the range when it has at most {@link #MAX_POINTS},
 * otherwise the range cut into at most {@link #MAX_POINTS} buckets of consecutive versions, each drawn as
 * the median, lowest and highest of its versions' levels (detection's trimmed means, one row per series and
 * version in {@code detection_point}, read index-only). Zooming in asks again for the narrower range and gets
 * every point there, raw samples included; the page itself carries none of it, so its HTML is the same size
 * with 20 or 20,000 versions.
 */
@Service
class ChartPoints {

  /** Points per machine the chart is sent: about one per two pixels of a wide chart. */
  static final int MAX_POINTS = 200;

  /** What the chart script reads. {@code last} (bucketed only): the last version of each bucket. */
  record Chart(List<String> versions, List<String> last, int bucket, int total, String unit, String direction,
      List<SeriesChart.ChartMachine> machines, List<ChartMarker> markers) {}

  /** A marker with the x position ({@code at}) of its version or of the bucket that holds it. */
  record ChartMarker(String version, String machine, String kind, String label, String href, int at) {}

  record Key(String sortKey, long versionId) {}

  /** Above every sort key (they are ASCII; the column's collation is "C"). */
  static final String HIGHEST = "\uffff";

  static final String KEY = "SELECT sort_key FROM version WHERE product_id = ? AND name = ?";

  static final String NEWEST = """
      SELECT DISTINCT k.sort_key, k.version_id FROM unnest(?::bigint[]) AS s(id)
      CROSS JOIN LATERAL (SELECT dp.sort_key, dp.version_id FROM detection_point dp
                          WHERE dp.series_id = s.id AND dp.sort_key < ?
                          ORDER BY dp.sort_key DESC LIMIT ?) AS k
      ORDER BY k.sort_key DESC LIMIT ?""";

  /**
   * The versions (x axis) these series measured in the range: the product's versions there (its sort-key index),
   * each kept on the first series found to have a point at it (one probe of detection_point's key per series
   * until one has), rather than reading every series' levels.
   */
  static final String AXIS = """
      SELECT v.sort_key, v.id FROM version v
      WHERE v.product_id = ? AND v.sort_key >= ? AND v.sort_key <= ?
        AND EXISTS (SELECT 1 FROM unnest(?::bigint[]) AS s(id) JOIN detection_point dp
                    ON dp.series_id = s.id AND dp.sort_key = v.sort_key)""";

  /**
   * The buckets, summarised by PostgreSQL so that only (machines × buckets) rows travel: per series and bucket
   * (its first and last sort key) one short index-only range, aggregated where it is read; no sort of the
   * (series × versions) levels.
   */
  static final String BUCKETS = """
      SELECT s.id AS series_id, b.i - 1 AS bucket, x.median, x.lo, x.hi
      FROM unnest(?::bigint[]) AS s(id)
      CROSS JOIN unnest(?::text[], ?::text[]) WITH ORDINALITY AS b(first, last, i)
      CROSS JOIN LATERAL (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY dp.level) AS median,
                                 min(dp.level) AS lo, max(dp.level) AS hi
                          FROM detection_point dp
                          WHERE dp.series_id = s.id AND dp.sort_key >= b.first COLLATE "C"
                            AND dp.sort_key <= b.last COLLATE "C") AS x
      WHERE x.lo IS NOT NULL""";

  static final String NAMES = "SELECT id, name FROM version WHERE id = ANY (?)";

  private final JdbcClient jdbc;
  private final SeriesQueries points;
  private final RegressionMarkers markers;

  ChartPoints(JdbcClient jdbc, SeriesQueries points, RegressionMarkers markers) {
    this.jdbc = jdbc;
    this.points = points;
    this.markers = markers;
  }

  /**
   * The chart of these series over [from, to] (version names, either may be null for open), or over the newest
   * {@code last} versions when {@code last} > 0.
   *
   * @throws InvalidInput when a named version does not exist
   */
  Chart chart(long productId, List<SeriesChart.MachineSeries> series, String from, String to, int last,
      boolean withSamples) {
    return chart(productId, series, from, to, last, withSamples, MAX_POINTS);
  }

  /** {@code maxPoints}: the most points per machine before versions are bucketed. */
  Chart chart(long productId, List<SeriesChart.MachineSeries> series, String from, String to, int last,
      boolean withSamples, int maxPoints) {
    List<Long> ids = series.stream().map(SeriesChart.MachineSeries::id).toList();
    String lo = "";
    String hi = HIGHEST;
    if (last > 0) {
      List<Key> newest = newest(ids, HIGHEST, last);
      if (!newest.isEmpty()) {
        lo = newest.get(newest.size() - 1).sortKey();
      }
    } else {
      lo = key(productId, from, "from").orElse(lo);
      hi = key(productId, to, "to").orElse(hi);
    }
    TreeMap<String, Long> axis = new TreeMap<>(); // sort_key → version id; Java's String order is the "C" collation
    jdbc.sql(AXIS).params(productId, lo, hi, ids.toArray(Long[]::new)).query((ResultSet rs) -> {
      axis.put(rs.getString(1), rs.getLong(2));
    });
    List<String> keys = new ArrayList<>(axis.keySet());
    Map<Long, String> names = names(axis.values());
    List<RegressionMarkers.Located> marks = markers.located(ids);
    SeriesChart.MachineSeries first = series.get(0);
    if (keys.size() <= maxPoints) {
      return every(series, keys, axis, names, marks, withSamples, first);
    }
    int size = (keys.size() + maxPoints - 1) / maxPoints;
    int buckets = (keys.size() + size - 1) / size;
    String[] firsts = new String[buckets];
    String[] lasts = new String[buckets];
    for (int b = 0; b < buckets; b++) {
      firsts[b] = keys.get(b * size);
      lasts[b] = keys.get(Math.min(keys.size(), (b + 1) * size) - 1);
    }
    List<Bucket> summaries = jdbc.sql(BUCKETS).params(ids.toArray(Long[]::new), firsts, lasts)
        .query((rs, i) -> new Bucket(rs.getLong(1), rs.getInt(2), rs.getDouble(3), rs.getDouble(4), rs.getDouble(5)))
        .list();
    return bucketed(series, keys, axis, names, summaries, marks, first, size, buckets);
  }

  /** One series' bucket: the median, lowest and highest of its versions' levels there. */
  private record Bucket(long seriesId, int bucket, double median, double min, double max) {}

  private Chart every(List<SeriesChart.MachineSeries> series, List<String> keys, TreeMap<String, Long> axis,
      Map<Long, String> names, List<RegressionMarkers.Located> marks, boolean withSamples,
      SeriesChart.MachineSeries first) {
    List<String> versions = keys.stream().map(k -> names.get(axis.get(k))).toList();
    Map<Long, List<Point>> byId = points.pointsAt(series.stream().map(SeriesChart.MachineSeries::id).toList(),
        List.copyOf(axis.values()));
    List<SeriesChart.ChartMachine> machines = series.stream().map(s -> {
      Map<String, Point> at = new HashMap<>();
      byId.getOrDefault(s.id(), List.of()).forEach(p -> at.put(p.version(), p));
      return SeriesChart.chartMachine(s.machine(), at, versions, withSamples);
    }).toList();
    List<ChartMarker> shown = new ArrayList<>();
    for (RegressionMarkers.Located m : marks) {
      int i = versions.indexOf(m.marker().version());
      if (i >= 0) {
        shown.add(marker(m, i));
      }
    }
    return new Chart(versions, null, 1, keys.size(), first.unit(), first.direction(), machines, shown);
  }

  private static Chart bucketed(List<SeriesChart.MachineSeries> series, List<String> keys, TreeMap<String, Long> axis,
      Map<Long, String> names, List<Bucket> summaries, List<RegressionMarkers.Located> marks,
      SeriesChart.MachineSeries first, int size, int buckets) {
    Map<String, Integer> bucketOf = new HashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      bucketOf.put(keys.get(i), i / size);
    }
    Map<Long, List<Bucket>> bySeries = new HashMap<>();
    summaries.forEach(b -> bySeries.computeIfAbsent(b.seriesId(), k -> new ArrayList<>()).add(b));
    List<SeriesChart.ChartMachine> machines = series.stream()
        .map(s -> summarise(s.machine(), bySeries.getOrDefault(s.id(), List.of()), buckets)).toList();
    List<String> firsts = new ArrayList<>();
    List<String> lasts = new ArrayList<>();
    for (int b = 0; b < buckets; b++) {
      firsts.add(names.get(axis.get(keys.get(b * size))));
      lasts.add(names.get(axis.get(keys.get(Math.min(keys.size(), (b + 1) * size) - 1))));
    }
    List<ChartMarker> shown = marks.stream().filter(m -> bucketOf.containsKey(m.sortKey()))
        .map(m -> marker(m, bucketOf.get(m.sortKey()))).toList();
    return new Chart(firsts, lasts, size, keys.size(), first.unit(), first.direction(), machines, shown);
  }

  /** Per bucket: the median, lowest and highest of the versions' levels (null where the machine measured none). */
  private static SeriesChart.ChartMachine summarise(String machine, List<Bucket> summaries, int n) {
    Double[] median = new Double[n];
    Double[] min = new Double[n];
    Double[] max = new Double[n];
    double[][] samples = new double[n][];
    for (int b = 0; b < n; b++) {
      samples[b] = new double[0];
    }
    for (Bucket b : summaries) {
      median[b.bucket()] = SeriesChart.round(b.median());
      min[b.bucket()] = SeriesChart.round(b.min());
      max[b.bucket()] = SeriesChart.round(b.max());
    }
    return new SeriesChart.ChartMachine(machine, median, min, max, samples);
  }

  private static ChartMarker marker(RegressionMarkers.Located m, int at) {
    SeriesChart.Marker k = m.marker();
    return new ChartMarker(k.version(), k.machine(), k.kind(), k.label(), k.href(), at);
  }

  /**
   * The newest versions (sort key and id) the series measured below {@code below} (a sort key), newest first:
   * the newest {@code limit} of each series, merged, so the cost follows the limit and the machines only.
   */
  List<Key> newest(List<Long> seriesIds, String below, int limit) {
    return jdbc.sql(NEWEST).params(seriesIds.toArray(Long[]::new), below, limit, limit)
        .query((rs, i) -> new Key(rs.getString(1), rs.getLong(2))).list();
  }

  /** A version's sort key, empty for no name; a name the product does not have is bad input. */
  Optional<String> key(long productId, String version, String field) {
    if (version == null || version.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(jdbc.sql(KEY).params(productId, version).query(String.class).optional()
        .orElseThrow(() -> new InvalidInput(field, "no version " + version + " of this product")));
  }

  Map<Long, String> names(java.util.Collection<Long> versionIds) {
    Map<Long, String> names = new HashMap<>();
    if (!versionIds.isEmpty()) {
      jdbc.sql(NAMES).param(versionIds.toArray(Long[]::new)).query((ResultSet rs) -> {
        names.put(rs.getLong("id"), rs.getString("name"));
      });
    }
    return names;
  }
}
