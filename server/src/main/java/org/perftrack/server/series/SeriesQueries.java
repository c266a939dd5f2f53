package org.perftrack.server.series;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perftrack.server.db.Rows;
import org.perftrack.server.db.SqlArrays;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.PointReads;
import org.perftrack.server.stats.Robust;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** Reads series: the samples of one (product, machine, benchmark, metric), grouped by version, in version order. */
@Service
public class SeriesQueries {

  /**
   * One version of a series: all samples of all runs of that version, and their summary. When no run of the
   * version kept raw samples ({@code summaryOnly}: the tool wrote only statistics), {@code samples} is empty
   * and the figures are the runs' own: a missing min, median or max is shown as the mean.
   */
  public record VersionResults(String version, int n, double min, double median, double mean, double max,
      double[] samples, List<String> runs, boolean summaryOnly, Double stddev) {}

  /** One result row: raw samples, or (empty samples) the statistics a tool wrote instead. */
  private record Stored(double[] samples, int n, Double min, Double median, double mean, Double max, Double stddev) {

    static Stored of(ResultSet rs) throws SQLException {
      return new Stored(SqlArrays.doubles(rs.getArray("samples")), rs.getInt("n"), nullable(rs, "min"), nullable(rs, "median"),
          rs.getDouble("mean"), nullable(rs, "max"), nullable(rs, "stddev"));
    }

    private static Double nullable(ResultSet rs, String column) throws SQLException {
      double v = rs.getDouble(column);
      return rs.wasNull() ? null : v;
    }
  }

  /** A series and its points in version order. */
  public record Series(long id, String product, String machine, String benchmark, String metric, String unit,
      Direction direction, List<VersionResults> points) {}

  private final JdbcClient jdbc;
  private final PointReads pointReads;

  SeriesQueries(JdbcClient jdbc, PointReads pointReads) {
    this.jdbc = jdbc;
    this.pointReads = pointReads;
  }

  record SeriesRow(long id, String product, String machine, String benchmark, String metric, String unit,
      Direction direction) {}

  static final String FIND_SERIES = """
      SELECT s.id, p.name AS product, m.name AS machine, s.benchmark, s.metric, s.unit, s.direction
      FROM series s JOIN product p ON p.id = s.product_id AND p.deletion_id IS NULL JOIN machine m ON m.id = s.machine_id AND m.deletion_id IS NULL
      WHERE p.name = ? AND m.name = ? AND s.benchmark = ? AND s.metric = ?""";

  static final String POINTS = """
      SELECT v.name AS version, r.run_id, r.samples, r.n, r.min, r.median, r.mean, r.max, r.stddev
      FROM result r JOIN version v ON v.id = r.version_id
      WHERE r.series_id = ?
      ORDER BY v.sort_key, r.run_id""";

  public Optional<Series> find(String product, String machine, String benchmark, String metric) {
    return find(product, machine, benchmark, metric, null);
  }

  /** As {@link #find(String, String, String, String)}, with only the newest {@code last} versions when not null. */
  public Optional<Series> find(String product, String machine, String benchmark, String metric, Integer last) {
    return jdbc.sql(FIND_SERIES).params(product, machine, benchmark, metric).query(Rows.of(SeriesRow.class)).optional()
        .map(s -> new Series(s.id(), s.product(), s.machine(), s.benchmark(), s.metric(), s.unit(), s.direction(),
            last == null ? points(s.id()) : read(rows -> pointReads.newestResults(s.id(), last, rows))));
  }

  /** The points of a series by id, in version order. */
  public List<VersionResults> points(long seriesId) {
    return read(rows -> jdbc.sql(POINTS).param(seriesId).query(rows));
  }

  private List<VersionResults> read(java.util.function.Consumer<RowCallbackHandler> statement) {
    Map<String, List<Stored>> samples = new LinkedHashMap<>();
    Map<String, List<String>> runs = new LinkedHashMap<>();
    statement.accept((ResultSet rs) -> {
      String version = rs.getString("version");
      samples.computeIfAbsent(version, v -> new ArrayList<>()).add(Stored.of(rs));
      runs.computeIfAbsent(version, v -> new ArrayList<>()).add(rs.getString("run_id"));
    });
    List<VersionResults> points = new ArrayList<>(samples.size());
    samples.forEach((version, arrays) -> points.add(point(version, arrays, runs.get(version))));
    return points;
  }

  static final String POINTS_OF_MANY = """
      SELECT r.series_id, v.name AS version, r.run_id, r.samples, r.n, r.min, r.median, r.mean, r.max, r.stddev
      FROM result r JOIN version v ON v.id = r.version_id
      WHERE r.series_id = ANY (?)
      ORDER BY r.series_id, v.sort_key, r.run_id""";

  /** The points of several series in one round trip (a chart of every machine), each in version order. */
  public Map<Long, List<VersionResults>> pointsOf(List<Long> seriesIds) {
    return collect(jdbc.sql(POINTS_OF_MANY).param(seriesIds.toArray(Long[]::new)));
  }

  private static Map<Long, List<VersionResults>> collect(JdbcClient.StatementSpec statement) {
    Map<Long, Map<String, List<Stored>>> samples = new LinkedHashMap<>();
    Map<Long, Map<String, List<String>>> runs = new LinkedHashMap<>();
    statement.query((ResultSet rs) -> {
      long id = rs.getLong("series_id");
      String version = rs.getString("version");
      samples.computeIfAbsent(id, k -> new LinkedHashMap<>()).computeIfAbsent(version, v -> new ArrayList<>())
          .add(Stored.of(rs));
      runs.computeIfAbsent(id, k -> new LinkedHashMap<>()).computeIfAbsent(version, v -> new ArrayList<>())
          .add(rs.getString("run_id"));
    });
    Map<Long, List<VersionResults>> points = new LinkedHashMap<>();
    samples.forEach((id, byVersion) -> {
      List<VersionResults> list = new ArrayList<>(byVersion.size());
      byVersion.forEach((version, arrays) -> list.add(point(version, arrays, runs.get(id).get(version))));
      points.put(id, list);
    });
    return points;
  }

  /** Versions by their ids first (primary-key probes), then each (series, version) pair's results. */
  static final String POINTS_AT = """
      SELECT r.series_id, v.name AS version, r.run_id, r.samples, r.n, r.min, r.median, r.mean, r.max, r.stddev
      FROM (SELECT v.id, v.name, v.sort_key FROM version v WHERE v.id = ANY (?::bigint[]) OFFSET 0) AS v
      JOIN result r ON r.version_id = v.id AND r.series_id = ANY (?::bigint[])
      ORDER BY r.series_id, v.sort_key, r.run_id""";

  /**
   * The points of several series at the given versions only (a page of a table, a zoomed chart): one probe of
   * (series, version) per pair, so the cost follows the versions asked for, not the length of the history.
   */
  public Map<Long, List<VersionResults>> pointsAt(List<Long> seriesIds, List<Long> versionIds) {
    if (seriesIds.isEmpty() || versionIds.isEmpty()) {
      return Map.of();
    }
    return collect(jdbc.sql(POINTS_AT).params(versionIds.toArray(Long[]::new), seriesIds.toArray(Long[]::new)));
  }

  /** Raw samples win: a version's summaries are used only when none of its runs kept samples. */
  private static VersionResults point(String version, List<Stored> rows, List<String> runs) {
    double[] all = rows.stream().flatMapToDouble(r -> Arrays.stream(r.samples())).toArray();
    if (all.length == 0) {
      return summaryPoint(version, rows, runs);
    }
    double[] sorted = all.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    double median = Robust.sortedMedian(sorted, n);
    return new VersionResults(version, n, sorted[0], median, Arrays.stream(all).sum() / n, sorted[n - 1], all, runs, false,
        null);
  }

  /** The runs' summaries pooled: n-weighted mean; the lowest min, the highest max; one run's median and stddev. */
  private static VersionResults summaryPoint(String version, List<Stored> rows, List<String> runs) {
    int n = rows.stream().mapToInt(Stored::n).sum();
    double mean = rows.size() == 1 ? rows.get(0).mean()
        : rows.stream().mapToDouble(r -> r.mean() * r.n()).sum() / Math.max(1, n);
    double min = rows.stream().mapToDouble(r -> r.min() == null ? r.mean() : r.min()).min().orElse(mean);
    double max = rows.stream().mapToDouble(r -> r.max() == null ? r.mean() : r.max()).max().orElse(mean);
    Stored single = rows.size() == 1 ? rows.get(0) : null;
    double median = single != null && single.median() != null ? single.median() : mean;
    return new VersionResults(version, n, min, median, mean, max, new double[0], runs, true,
        single == null ? null : single.stddev());
  }

  /** A version of a series whose runs triage excluded, on one machine: the series page leaves it out and says so. */
  record Excluded(String version, String machine) {}

  /** Set-aside results only (few), by the excluded runs' partial index. */
  static final String EXCLUDED = """
      SELECT DISTINCT v.name AS version, m.name AS machine, v.sort_key
      FROM run r JOIN result_set_aside x ON x.run_id = r.id JOIN series s ON s.id = x.series_id
           JOIN product p ON p.id = s.product_id JOIN version v ON v.id = r.version_id
           JOIN machine m ON m.id = r.machine_id
      WHERE r.excluded_at IS NOT NULL AND r.deletion_id IS NULL AND v.deletion_id IS NULL AND m.deletion_id IS NULL
        AND p.name = ? AND s.benchmark = ? AND s.metric = ? AND (CAST(? AS text) IS NULL OR m.name = ?)
      ORDER BY v.sort_key, m.name LIMIT 50""";

  /** The versions of this series (on this machine, or any) that are left out because their runs were excluded. */
  List<Excluded> excluded(String product, String benchmark, String metric, String machine) {
    String m = machine == null || machine.isBlank() ? null : machine;
    return jdbc.sql(EXCLUDED).params(product, benchmark, metric, m, m)
        .query((rs, i) -> new Excluded(rs.getString("version"), rs.getString("machine"))).list();
  }
}
