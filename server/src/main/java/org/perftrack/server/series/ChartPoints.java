package org.perftrack.server.series;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.PointReads;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.series.SeriesQueries;
import org.perftrack.server.series.SeriesQueries.VersionResults;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The JSON the series chart fetches: every version of the range when it has at most {@link #MAX_POINTS},
 * otherwise the range cut into at most {@link #MAX_POINTS} buckets of consecutive versions (blocks that kept
 * summaries stand for, see {@link ChartBlocks}), each drawn as the median, lowest and highest of its versions'
 * levels (detection's trimmed means). Zooming in asks again for the narrower range and gets every point there, raw
 * samples included; the page itself carries none of it, so its HTML is the same size with 20 or 20,000 versions,
 * and the chart's reads are about the same too.
 *
 * <p>Size: {@code bucketed} (about 70 lines) makes three passes over one list of shown buckets (bounds, each
 * machine's values, markers) that share its index.
 */
@Service
class ChartPoints {

  /** Points per machine the chart is sent: about one per two pixels of a wide chart. */
  static final int MAX_POINTS = 200;

  /** What the chart script reads. {@code last} (bucketed only): the last version of each bucket. */
  record Chart(List<String> versions, List<String> last, int bucket, int total, String unit, Direction direction,
      List<SeriesChart.ChartMachine> machines, List<ChartMarker> markers, SeriesChart.Shown shown) {}

  /** A marker with the x position ({@code at}) of its version or of the bucket that holds it. */
  record ChartMarker(String version, String machine, String kind, String label, String href, int at) {}

  /** Above every sort key (they are ASCII; the column's collation is "C"). */
  static final String HIGHEST = "\uffff";

  static final String KEY = "SELECT sort_key FROM version WHERE product_id = ? AND name = ?";

  static final String NAMES = "SELECT id, name FROM version WHERE id = ANY (?)";

  private final JdbcClient jdbc;
  private final PointReads pointReads;
  private final SeriesQueries points;
  private final RegressionMarkers markers;
  private final ChartBlocks blocks;

  ChartPoints(JdbcClient jdbc, SeriesQueries points, RegressionMarkers markers, ChartBlocks blocks,
      PointReads pointReads) {
    this.jdbc = jdbc;
    this.pointReads = pointReads;
    this.blocks = blocks;
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
      List<PointReads.Key> newest = newest(ids, HIGHEST, last);
      if (!newest.isEmpty()) {
        lo = newest.get(newest.size() - 1).sortKey();
      }
    } else {
      lo = key(productId, from, "from").orElse(lo);
      hi = key(productId, to, "to").orElse(hi);
    }
    Map<String, Long> axis = pointReads.axis(productId, lo, hi, ids, maxPoints + 1); // sort_key → version id
    List<RegressionMarkers.Located> marks = markers.located(ids);
    SeriesChart.MachineSeries first = series.get(0);
    if (axis.size() <= maxPoints) {
      return every(series, new ArrayList<>(axis.keySet()), axis, names(axis.values()), marks, withSamples, first);
    }
    return bucketed(productId, series, blocks.cut(productId, ids, lo, hi, maxPoints), marks, first, maxPoints);
  }

  private Chart every(List<SeriesChart.MachineSeries> series, List<String> keys, Map<String, Long> axis,
      Map<Long, String> names, List<RegressionMarkers.Located> marks, boolean withSamples,
      SeriesChart.MachineSeries first) {
    List<String> versions = keys.stream().map(k -> names.get(axis.get(k))).toList();
    Map<Long, List<VersionResults>> byId = points.pointsAt(series.stream().map(SeriesChart.MachineSeries::id).toList(),
        List.copyOf(axis.values()));
    List<SeriesChart.ChartMachine> machines = series.stream().map(s -> {
      Map<String, VersionResults> at = new HashMap<>();
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
    return new Chart(versions, null, 1, keys.size(), first.unit(), first.direction(), machines, shown,
        SeriesChart.Shown.of(first.unit(), machines));
  }

  /**
   * The chart of a cut range: a bucket per segment where some series has points, each series' median, lowest and
   * highest of its levels there, labelled with the first and last version measured in it.
   */
  private Chart bucketed(long productId, List<SeriesChart.MachineSeries> series, ChartBlocks.Cut cut,
      List<RegressionMarkers.Located> marks, SeriesChart.MachineSeries first, int maxPoints) {
    List<ChartBlocks.Segment> segments = cut.segments();
    List<Integer> shown = new ArrayList<>();
    List<String> firstKeys = new ArrayList<>();
    List<String> lastKeys = new ArrayList<>();
    long total = 0;
    for (int i = 0; i < segments.size(); i++) {
      int most = 0;
      String earliest = null;
      String latest = null;
      for (ChartBlocks.Agg[] aggs : cut.bySeries().values()) {
        ChartBlocks.Agg a = aggs[i];
        if (a != null) {
          most = Math.max(most, a.n());
          earliest = earliest == null || ChartBlocks.compareKeys(a.firstPoint(), earliest) < 0 ? a.firstPoint() : earliest;
          latest = latest == null || ChartBlocks.compareKeys(a.lastPoint(), latest) > 0 ? a.lastPoint() : latest;
        }
      }
      if (most > 0) {
        shown.add(i);
        total += most;
        firstKeys.add(earliest);
        lastKeys.add(latest);
      }
    }
    Map<String, String> named = namesByKey(productId, firstKeys, lastKeys);
    List<String> firsts = firstKeys.stream().map(named::get).toList();
    List<String> lasts = lastKeys.stream().map(named::get).toList();
    int n = shown.size();
    List<SeriesChart.ChartMachine> machines = series.stream().map(s -> {
      ChartBlocks.Agg[] aggs = cut.bySeries().get(s.id());
      Double[] median = new Double[n];
      Double[] min = new Double[n];
      Double[] max = new Double[n];
      double[][] samples = new double[n][];
      for (int b = 0; b < n; b++) {
        ChartBlocks.Agg a = aggs[shown.get(b)];
        samples[b] = new double[0];
        if (a != null) {
          median[b] = SeriesChart.round(a.median());
          min[b] = SeriesChart.round(a.lo());
          max[b] = SeriesChart.round(a.hi());
        }
      }
      return new SeriesChart.ChartMachine(s.machine(), median, min, max, samples);
    }).toList();
    // a marker goes to the bucket whose segment holds its version
    List<ChartMarker> shownMarks = new ArrayList<>();
    for (RegressionMarkers.Located m : marks) {
      for (int i = 0; i < segments.size(); i++) {
        ChartBlocks.Segment s = segments.get(i);
        if (ChartBlocks.compareKeys(s.first(), m.sortKey()) <= 0 && ChartBlocks.compareKeys(m.sortKey(), s.end()) < 0) {
          int at = shown.indexOf(i);
          if (at >= 0) {
            shownMarks.add(marker(m, at));
          }
          break;
        }
      }
    }
    // the versions a bucket stands for on average (at least 2: the chart script reads 1 as "every version")
    // versions measured: per bucket the machine with the most (machines that measured different versions make it
    // an underestimate), and more than maxPoints, or the range would not have been cut
    total = Math.max(total, maxPoints + 1);
    int size = (int) Math.max(2, Math.round((double) total / Math.max(1, n)));
    return new Chart(firsts, lasts, size, (int) total, first.unit(), first.direction(), machines, shownMarks,
        SeriesChart.Shown.of(first.unit(), machines));
  }

  private static ChartMarker marker(RegressionMarkers.Located m, int at) {
    SeriesChart.Marker k = m.marker();
    return new ChartMarker(k.version(), k.machine(), k.kind(), k.label(), k.href(), at);
  }

  /**
   * The newest versions (sort key and id) the series measured below {@code below} (a sort key), newest first:
   * the newest {@code limit} of each series, merged, so the cost follows the limit and the machines only.
   */
  List<PointReads.Key> newest(List<Long> seriesIds, String below, int limit) {
    return pointReads.newestKeys(seriesIds, below, limit);
  }

  /** A version's sort key, empty for no name; a name the product does not have is bad input. */
  Optional<String> key(long productId, String version, String field) {
    if (version == null || version.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(jdbc.sql(KEY).params(productId, version).query(String.class).optional()
        .orElseThrow(() -> new InvalidInput(field, "no version " + version + " of this product")));
  }

  static final String NAMES_BY_KEY = """
      SELECT k.sort_key, v.name FROM unnest(?::text[]) AS k(sort_key)
      CROSS JOIN LATERAL (SELECT v.name FROM version v WHERE v.product_id = ? AND v.sort_key = k.sort_key
                          ORDER BY v.deletion_id NULLS FIRST LIMIT 1) AS v""";

  /** The names of the product's versions at these sort keys (the version_order index, one probe each). */
  private Map<String, String> namesByKey(long productId, List<String> firstKeys, List<String> lastKeys) {
    Set<String> keys = new HashSet<>(firstKeys);
    keys.addAll(lastKeys);
    Map<String, String> out = new HashMap<>();
    jdbc.sql(NAMES_BY_KEY).params(keys.toArray(String[]::new), productId).query((ResultSet rs) -> {
      out.put(rs.getString("sort_key"), rs.getString("name"));
    });
    return out;
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
