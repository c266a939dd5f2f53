package org.perftrack.server.products;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.perftrack.formats.Json;
import org.perftrack.server.series.SeriesQueries;
import org.perftrack.server.series.SeriesQueries.Point;
import org.perftrack.server.versions.VersionOrder;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The series page's data: the series of one benchmark/metric on every machine (or one), merged on
 * one version axis in version order, as a table and as the JSON the chart script draws.
 */
@Service
public class SeriesChart {

  /** A series of the page: its id and machine. */
  record MachineSeries(long id, String machine, String unit, String direction) {}

  /** The chart's version axis: all versions, or a stretch around a step (regression page). */
  public record Range(String from, String to, int margin) {}

  /**
   * One version and each machine's point there (null where that machine did not measure it), with the
   * lowest, middle and highest median across machines for pages with too many machines for a column each.
   */
  public record TableRow(String version, List<Point> points, int machines, double lowest, double middle, double highest) {

    static TableRow of(String version, List<Point> points) {
      double[] m = points.stream().filter(java.util.Objects::nonNull).mapToDouble(Point::median).sorted().toArray();
      return new TableRow(version, points, m.length, m[0], m[m.length / 2], m[m.length - 1]);
    }
  }

  /** A mark on the chart at a version (regressions and improvements once detection runs). */
  public record Marker(String version, String machine, String kind, String label, String href) {}

  /**
   * The page. {@code detailed}: few enough machines for a table column each and raw sample dots; with more,
   * the table summarises across machines and the chart leaves the dots out (pick a machine to see them).
   * {@code positive}: every value is above zero, so a log scale can show it; {@code logByDefault}: the
   * values span more than {@value #LOG_SPAN}×, where a linear axis flattens everything but the step.
   */
  public record View(String product, String benchmark, String metric, String unit, String direction, String machineFilter,
      List<String> machines, List<String> allMachines, List<TableRow> rows, boolean detailed, List<Marker> markers,
      String chartJson, boolean positive, boolean logByDefault) {}

  static final double LOG_SPAN = 20;

  static final int MAX_DETAILED = 6;

  /** What the chart script reads (one array entry per version, null where absent). */
  record ChartData(List<String> versions, String unit, String direction, List<ChartMachine> machines,
      List<Marker> markers) {}

  record ChartMachine(String name, Double[] median, Double[] min, Double[] max, double[][] samples) {}

  static final String SERIES = """
      SELECT s.id, m.name AS machine, s.unit, s.direction
      FROM series s JOIN product p ON p.id = s.product_id JOIN machine m ON m.id = s.machine_id
      WHERE p.name = ? AND s.benchmark = ? AND s.metric = ?
      ORDER BY m.name""";

  private final JdbcClient jdbc;
  private final SeriesQueries seriesQueries;
  private final RegressionMarkers markers;

  SeriesChart(JdbcClient jdbc, SeriesQueries seriesQueries, RegressionMarkers markers) {
    this.jdbc = jdbc;
    this.seriesQueries = seriesQueries;
    this.markers = markers;
  }

  public Optional<View> view(String product, String benchmark, String metric, String machine) {
    return view(product, benchmark, metric, machine, null);
  }

  /** {@code range} null for every version. */
  public Optional<View> view(String product, String benchmark, String metric, String machine, Range range) {
    List<MachineSeries> all = jdbc.sql(SERIES).params(product, benchmark, metric).query(MachineSeries.class).list();
    List<MachineSeries> shown = machine == null || machine.isBlank() ? all
        : all.stream().filter(s -> s.machine().equals(machine)).toList();
    if (shown.isEmpty()) {
      return Optional.empty();
    }
    Map<String, Map<String, Point>> byMachine = new LinkedHashMap<>();
    TreeSet<String> versions = new TreeSet<>(VersionOrder.INSTANCE);
    Map<Long, List<Point>> pointsById = seriesQueries.pointsOf(shown.stream().map(MachineSeries::id).toList());
    for (MachineSeries s : shown) {
      Map<String, Point> points = new HashMap<>();
      for (Point p : pointsById.getOrDefault(s.id(), List.of())) {
        points.put(p.version(), p);
        versions.add(p.version());
      }
      byMachine.put(s.machine(), points);
    }
    List<String> axis = cut(new ArrayList<>(versions), range);
    List<Marker> marks = markers.of(shown.stream().map(MachineSeries::id).toList()).stream()
        .filter(m -> axis.contains(m.version())).toList();
    List<TableRow> rows = axis.stream()
        .map(v -> TableRow.of(v, byMachine.values().stream().map(m -> m.get(v)).toList())).toList();
    boolean detailed = shown.size() <= MAX_DETAILED;
    MachineSeries first = shown.get(0);
    ChartData data = new ChartData(axis, first.unit(), first.direction(), byMachine.entrySet().stream()
        .map(e -> chartMachine(e.getKey(), e.getValue(), axis, detailed)).toList(), marks);
    double lo = data.machines().stream().flatMap(m -> java.util.Arrays.stream(m.min())).filter(java.util.Objects::nonNull)
        .mapToDouble(Double::doubleValue).min().orElse(0);
    double hi = data.machines().stream().flatMap(m -> java.util.Arrays.stream(m.max())).filter(java.util.Objects::nonNull)
        .mapToDouble(Double::doubleValue).max().orElse(0);
    return Optional.of(new View(product, benchmark, metric, first.unit(), first.direction(),
        shown.size() < all.size() ? machine : null, List.copyOf(byMachine.keySet()),
        all.stream().map(MachineSeries::machine).toList(), rows, detailed, marks, Json.MAPPER.writeValueAsString(data),
        lo > 0, lo > 0 && hi / lo > LOG_SPAN));
  }

  private static List<String> cut(List<String> axis, Range range) {
    if (range == null || !axis.contains(range.from()) || !axis.contains(range.to())) {
      return axis;
    }
    int from = Math.max(0, axis.indexOf(range.from()) - range.margin());
    int to = Math.min(axis.size(), axis.indexOf(range.to()) + range.margin() + 1);
    return new ArrayList<>(axis.subList(from, to));
  }

  private static ChartMachine chartMachine(String name, Map<String, Point> points, List<String> axis,
      boolean withSamples) {
    int n = axis.size();
    Double[] median = new Double[n];
    Double[] min = new Double[n];
    Double[] max = new Double[n];
    double[][] samples = new double[n][];
    for (int i = 0; i < n; i++) {
      Point p = points.get(axis.get(i));
      if (p != null) {
        median[i] = round(p.median());
        min[i] = round(p.min());
        max[i] = round(p.max());
        samples[i] = withSamples ? java.util.Arrays.stream(p.samples()).map(SeriesChart::round).toArray() : new double[0];
      } else {
        samples[i] = new double[0];
      }
    }
    return new ChartMachine(name, median, min, max, samples);
  }

  /** Six significant digits are more than a chart can show and keep the page's JSON short. */
  static double round(double v) {
    if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
      return v;
    }
    double scale = Math.pow(10, 5 - Math.floor(Math.log10(Math.abs(v))));
    return Math.round(v * scale) / scale;
  }
}
