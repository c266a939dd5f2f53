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
class SeriesChart {

  /** A series of the page: its id and machine. */
  record MachineSeries(long id, String machine, String unit, String direction) {}

  /** One version and each machine's point there (null where that machine did not measure it). */
  record TableRow(String version, List<Point> points) {}

  /** A mark on the chart at a version (regressions and improvements once detection runs). */
  record Marker(String version, String machine, String kind, String label, String href) {}

  record View(String product, String benchmark, String metric, String unit, String direction, String machineFilter,
      List<String> machines, List<String> allMachines, List<TableRow> rows, int pointCount, String chartJson) {}

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

  SeriesChart(JdbcClient jdbc, SeriesQueries seriesQueries) {
    this.jdbc = jdbc;
    this.seriesQueries = seriesQueries;
  }

  Optional<View> view(String product, String benchmark, String metric, String machine) {
    List<MachineSeries> all = jdbc.sql(SERIES).params(product, benchmark, metric).query(MachineSeries.class).list();
    List<MachineSeries> shown = machine == null || machine.isBlank() ? all
        : all.stream().filter(s -> s.machine().equals(machine)).toList();
    if (shown.isEmpty()) {
      return Optional.empty();
    }
    Map<String, Map<String, Point>> byMachine = new LinkedHashMap<>();
    TreeSet<String> versions = new TreeSet<>(VersionOrder.INSTANCE);
    for (MachineSeries s : shown) {
      Map<String, Point> points = new HashMap<>();
      for (Point p : seriesQueries.points(s.id())) {
        points.put(p.version(), p);
        versions.add(p.version());
      }
      byMachine.put(s.machine(), points);
    }
    List<String> axis = new ArrayList<>(versions);
    List<TableRow> rows = axis.stream()
        .map(v -> new TableRow(v, byMachine.values().stream().map(m -> m.get(v)).toList())).toList();
    int count = byMachine.values().stream().mapToInt(Map::size).sum();
    MachineSeries first = shown.get(0);
    ChartData data = new ChartData(axis, first.unit(), first.direction(),
        byMachine.entrySet().stream().map(e -> chartMachine(e.getKey(), e.getValue(), axis)).toList(), List.of());
    return Optional.of(new View(product, benchmark, metric, first.unit(), first.direction(),
        shown.size() < all.size() ? machine : null, List.copyOf(byMachine.keySet()),
        all.stream().map(MachineSeries::machine).toList(), rows, count, Json.MAPPER.writeValueAsString(data)));
  }

  private static ChartMachine chartMachine(String name, Map<String, Point> points, List<String> axis) {
    int n = axis.size();
    Double[] median = new Double[n];
    Double[] min = new Double[n];
    Double[] max = new Double[n];
    double[][] samples = new double[n][];
    for (int i = 0; i < n; i++) {
      Point p = points.get(axis.get(i));
      if (p != null) {
        median[i] = p.median();
        min[i] = p.min();
        max[i] = p.max();
        samples[i] = p.samples();
      } else {
        samples[i] = new double[0];
      }
    }
    return new ChartMachine(name, median, min, max, samples);
  }
}
