package org.perftrack.server.series;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.perftrack.server.db.Json;
import org.perftrack.server.db.Rows;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.PointReads;
import org.perftrack.server.series.SeriesQueries;
import org.perftrack.server.series.SeriesQueries.VersionResults;
import org.perftrack.server.stats.Robust;
import org.perftrack.wire.Quantities;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The series page's data: the series of one benchmark/metric on every machine (or one), merged on
 * one version axis in version order, as a table and as the JSON the chart script draws.
 */
@Service
public class SeriesChart {

  /** A series of the page: its id and machine. */
  record MachineSeries(long id, long productId, String machine, String unit, Direction direction) {}

  /** A stretch of versions around a step (regression page): {@code margin} versions each side of [from, to]. */
  public record Range(String from, String to, int margin) {}

  /**
   * One version and each machine's point there (null where that machine did not measure it), with the
   * lowest, middle and highest median across machines for pages with too many machines for a column each.
   */
  public record TableRow(String version, List<VersionResults> points, int machines, double lowest, double middle, double highest) {

    /** Null when no machine has a point at the version. */
    static TableRow of(String version, List<VersionResults> points) {
      double[] m = points.stream().filter(java.util.Objects::nonNull).mapToDouble(VersionResults::median).sorted().toArray();
      return m.length == 0 ? null : new TableRow(version, points, m.length, m[0], Robust.sortedMedian(m, m.length),
          m[m.length - 1]);
    }
  }

  /** A mark on the chart at a version (regressions and improvements once detection runs). */
  public record Marker(String version, String machine, String kind, String label, String href) {

    /** The label's words before its machine ("2.7× slower in 1.5.24-2 on"): the page keeps the machine's name whole. */
    public String beforeMachine() {
      int at = label.lastIndexOf(" on " + machine);
      return at < 0 ? label : label.substring(0, at + 3);
    }

    /** The label's words after its machine (" (open)"); empty when the label does not name it. */
    public String afterMachine() {
      int at = label.lastIndexOf(" on " + machine);
      return at < 0 ? "" : label.substring(at + 4 + machine.length());
    }

    /** Whether the label names its machine (then shown whole between the words before and after it). */
    public boolean namesMachine() {
      return label.lastIndexOf(" on " + machine) >= 0;
    }
  }

  /**
   * The page. {@code detailed}: few enough machines for a table column each and raw sample dots; with more,
   * the table summarises across machines and the chart leaves the dots out (pick a machine to see them).
   * {@code positive}: every value is above zero, so a log scale can show it; {@code logByDefault}: the
   * values span more than {@value #LOG_SPAN}×, where a linear axis flattens everything but the step.
   */
  public record View(String product, String benchmark, String metric, String unit, Direction direction, String machineFilter,
      List<String> machines, List<String> allMachines, List<TableRow> rows, boolean detailed, List<Marker> markers,
      String chartJson, boolean positive, boolean logByDefault, String olderThan) {

    /** The values the table shows (lowest and highest of each point, or across machines), to choose their unit. */
    public List<Double> tableValues() {
      List<Double> values = new ArrayList<>();
      for (TableRow row : rows) {
        values.add(row.lowest());
        values.add(row.highest());
        for (VersionResults p : detailed ? row.points() : List.<VersionResults>of()) {
          if (p != null) {
            values.add(p.min());
            values.add(p.max());
          }
        }
      }
      return values;
    }
  }

  /** Versions per page of the series page's table, newest page first. */
  static final int PAGE = 50;

  static final double LOG_SPAN = 20;

  static final int MAX_DETAILED = 6;

  /** What the chart script reads (one array entry per version, null where absent). */
  record ChartData(List<String> versions, String unit, Direction direction, List<ChartMachine> machines,
      List<Marker> markers, Shown shown) {}

  /**
   * The unit the chart writes its values in (its axis and legend) and one of it in the series' unit: bytes take the
   * prefix of the largest value drawn ({@link Quantities#scale}: GB/s, 1e9 of B/s); the values sent stay raw.
   */
  record Shown(String unit, double per) {

    static Shown of(String unit, List<ChartMachine> machines) {
      double[] extremes = machines.stream().flatMap(m -> java.util.stream.Stream.of(m.min(), m.max()))
          .flatMap(java.util.Arrays::stream).filter(java.util.Objects::nonNull).mapToDouble(Double::doubleValue)
          .toArray();
      Quantities.Scale scale = Quantities.scale(unit, extremes);
      return new Shown(scale.unit(), scale.per());
    }
  }

  record ChartMachine(String name, Double[] median, Double[] min, Double[] max, double[][] samples) {}

  static final String SERIES = """
      SELECT s.id, s.product_id, m.name AS machine, s.unit, s.direction
      FROM series s JOIN product p ON p.id = s.product_id AND p.deletion_id IS NULL JOIN machine m ON m.id = s.machine_id AND m.deletion_id IS NULL
      WHERE p.name = ? AND s.benchmark = ? AND s.metric = ?
      ORDER BY m.name""";

  private final JdbcClient jdbc;
  private final PointReads pointReads;
  private final SeriesQueries seriesQueries;
  private final RegressionMarkers markers;
  private final ChartPoints chartPoints;

  SeriesChart(JdbcClient jdbc, SeriesQueries seriesQueries, RegressionMarkers markers, ChartPoints chartPoints,
      PointReads pointReads) {
    this.jdbc = jdbc;
    this.pointReads = pointReads;
    this.seriesQueries = seriesQueries;
    this.markers = markers;
    this.chartPoints = chartPoints;
  }

  /** The series of the benchmark/metric on every machine, and those shown (one machine, or all). */
  private record Chosen(List<MachineSeries> all, List<MachineSeries> shown) {}

  private Optional<Chosen> choose(String product, String benchmark, String metric, String machine) {
    List<MachineSeries> all = jdbc.sql(SERIES).params(product, benchmark, metric).query(Rows.of(MachineSeries.class)).list();
    List<MachineSeries> shown = machine == null || machine.isBlank() ? all
        : all.stream().filter(s -> s.machine().equals(machine)).toList();
    return shown.isEmpty() ? Optional.empty() : Optional.of(new Chosen(all, shown));
  }

  /**
   * The series page: its table holds one page of {@link #PAGE} versions, the newest below {@code olderThan}
   * (a version name; null for the newest page), and the chart's data is fetched as JSON ({@link #chart}); so
   * the page costs the same however long the history is.
   */
  public Optional<View> page(String product, String benchmark, String metric, String machine, String olderThan) {
    return page(product, benchmark, metric, machine, olderThan, PAGE);
  }

  Optional<View> page(String product, String benchmark, String metric, String machine, String olderThan,
      int pageSize) {
    Optional<Chosen> chosen = choose(product, benchmark, metric, machine);
    if (chosen.isEmpty()) {
      return Optional.empty();
    }
    List<MachineSeries> shown = chosen.get().shown();
    List<Long> ids = shown.stream().map(MachineSeries::id).toList();
    String below = chartPoints.key(shown.get(0).productId(), olderThan, "olderThan").orElse(ChartPoints.HIGHEST);
    List<PointReads.Key> newest = chartPoints.newest(ids, below, pageSize + 1);
    List<PointReads.Key> slice = new ArrayList<>(newest.subList(0, Math.min(pageSize, newest.size())));
    java.util.Collections.reverse(slice);
    List<Long> versionIds = slice.stream().map(PointReads.Key::versionId).toList();
    List<String> axis = axis(versionIds);
    Map<String, Map<String, VersionResults>> byMachine = byMachine(shown, ids, versionIds);
    List<TableRow> rows = axis.stream()
        .map(v -> TableRow.of(v, byMachine.values().stream().map(m -> m.get(v)).toList()))
        .filter(java.util.Objects::nonNull).toList();
    MachineSeries first = shown.get(0);
    return Optional.of(new View(product, benchmark, metric, first.unit(), first.direction(),
        shown.size() < chosen.get().all().size() ? machine : null, List.copyOf(byMachine.keySet()),
        chosen.get().all().stream().map(MachineSeries::machine).toList(), rows, shown.size() <= MAX_DETAILED,
        markers.of(ids), null, false, false, newest.size() > pageSize && !axis.isEmpty() ? axis.get(0) : null));
  }

  /** The chart's JSON for the series page: see {@link ChartPoints}. */
  public Optional<ChartPoints.Chart> chart(String product, String benchmark, String metric, String machine,
      String from, String to, int last) {
    return chart(product, benchmark, metric, machine, from, to, last, ChartPoints.MAX_POINTS);
  }

  Optional<ChartPoints.Chart> chart(String product, String benchmark, String metric, String machine,
      String from, String to, int last, int maxPoints) {
    return choose(product, benchmark, metric, machine).map(c -> chartPoints.chart(c.shown().get(0).productId(),
        c.shown(), from, to, last, c.shown().size() <= MAX_DETAILED, maxPoints));
  }

  /**
   * The series around a step (the regression page): {@code range.margin()} versions on each side of
   * [{@code range.from()}, {@code range.to()}], read by (series, version), so the page costs the same with 20 or
   * 20,000 versions of history; the whole series is the series page's. When a version of the range is not the
   * product's, the newest versions instead.
   */
  public Optional<View> view(String product, String benchmark, String metric, String machine, Range range) {
    Optional<Chosen> chosen = choose(product, benchmark, metric, machine);
    if (chosen.isEmpty()) {
      return Optional.empty();
    }
    List<MachineSeries> all = chosen.get().all();
    List<MachineSeries> shown = chosen.get().shown();
    List<Long> ids = shown.stream().map(MachineSeries::id).toList();
    List<PointReads.Key> keys = around(shown.get(0).productId(), ids, range);
    List<Long> versionIds = keys.stream().map(PointReads.Key::versionId).toList();
    List<String> axis = axis(versionIds);
    Map<String, Map<String, VersionResults>> byMachine = byMachine(shown, ids, versionIds);
    java.util.Set<String> onAxis = new java.util.HashSet<>(axis);
    List<Marker> marks = markers.of(ids).stream().filter(m -> onAxis.contains(m.version())).toList();
    List<TableRow> rows = axis.stream()
        .map(v -> TableRow.of(v, byMachine.values().stream().map(m -> m.get(v)).toList()))
        .filter(java.util.Objects::nonNull).toList();
    boolean detailed = shown.size() <= MAX_DETAILED;
    MachineSeries first = shown.get(0);
    List<ChartMachine> drawn = byMachine.entrySet().stream()
        .map(e -> chartMachine(e.getKey(), e.getValue(), axis, detailed)).toList();
    ChartData data = new ChartData(axis, first.unit(), first.direction(), drawn, marks, Shown.of(first.unit(), drawn));
    double lo = data.machines().stream().flatMap(m -> java.util.Arrays.stream(m.min())).filter(java.util.Objects::nonNull)
        .mapToDouble(Double::doubleValue).min().orElse(0);
    double hi = data.machines().stream().flatMap(m -> java.util.Arrays.stream(m.max())).filter(java.util.Objects::nonNull)
        .mapToDouble(Double::doubleValue).max().orElse(0);
    return Optional.of(new View(product, benchmark, metric, first.unit(), first.direction(),
        shown.size() < all.size() ? machine : null, List.copyOf(byMachine.keySet()),
        all.stream().map(MachineSeries::machine).toList(), rows, detailed, marks, Json.MAPPER.writeValueAsString(data),
        lo > 0, lo > 0 && hi / lo > LOG_SPAN, null));
  }

  /** The versions of {@link PointReads#around}, oldest first; the newest 2 × margin + 2 when the range is not the product's. */
  private List<PointReads.Key> around(long productId, List<Long> ids, Range range) {
    Optional<String> from = jdbc.sql(ChartPoints.KEY).params(productId, range.from()).query(String.class).optional();
    Optional<String> to = jdbc.sql(ChartPoints.KEY).params(productId, range.to()).query(String.class).optional();
    int margin = range.margin();
    if (from.isEmpty() || to.isEmpty() || from.get().compareTo(to.get()) > 0) {
      List<PointReads.Key> newest = new ArrayList<>(chartPoints.newest(ids, ChartPoints.HIGHEST, 2 * margin + 2));
      java.util.Collections.reverse(newest);
      return newest;
    }
    String lo = from.get();
    String hi = to.get();
    List<PointReads.Key> keys = pointReads.around(ids, lo, hi, margin, ChartPoints.MAX_POINTS);
    // several series: keep the margin nearest the range on each side of the merged axis
    List<PointReads.Key> before = keys.stream().filter(k -> k.sortKey().compareTo(lo) < 0).toList();
    List<PointReads.Key> within = keys.stream()
        .filter(k -> k.sortKey().compareTo(lo) >= 0 && k.sortKey().compareTo(hi) <= 0).limit(ChartPoints.MAX_POINTS)
        .toList();
    List<PointReads.Key> after = keys.stream().filter(k -> k.sortKey().compareTo(hi) > 0).limit(margin).toList();
    List<PointReads.Key> out = new ArrayList<>(before.subList(Math.max(0, before.size() - margin), before.size()));
    out.addAll(within);
    out.addAll(after);
    return out;
  }

  static ChartMachine chartMachine(String name, Map<String, VersionResults> points, List<String> axis,
      boolean withSamples) {
    int n = axis.size();
    Double[] median = new Double[n];
    Double[] min = new Double[n];
    Double[] max = new Double[n];
    double[][] samples = new double[n][];
    for (int i = 0; i < n; i++) {
      VersionResults p = points.get(axis.get(i));
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

  /** The names of these versions, in their order. */
  private List<String> axis(List<Long> versionIds) {
    Map<Long, String> names = chartPoints.names(versionIds);
    return versionIds.stream().map(names::get).toList();
  }

  /** Each shown machine's points at these versions, by version name. */
  private Map<String, Map<String, VersionResults>> byMachine(List<MachineSeries> shown, List<Long> ids, List<Long> versionIds) {
    Map<Long, List<VersionResults>> pointsById = seriesQueries.pointsAt(ids, versionIds);
    Map<String, Map<String, VersionResults>> byMachine = new LinkedHashMap<>();
    for (MachineSeries s : shown) {
      Map<String, VersionResults> points = new HashMap<>();
      pointsById.getOrDefault(s.id(), List.of()).forEach(p -> points.put(p.version(), p));
      byMachine.put(s.machine(), points);
    }
    return byMachine;
  }
}
