package org.perftrack.server.products;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.perftrack.server.dashboard.Fmt;

/**
 * The product page's view: one row per benchmark/metric with a sparkline over the recent versions
 * and the latest value on each machine.
 */
record ProductPage(String product, List<String> machines, List<Row> rows, List<String> versions,
    List<String> window) {

  /** One benchmark/metric. {@code latest} has one cell per machine column (null where not measured). */
  record Row(String benchmark, String metric, String unit, String direction, Sparkline.Spark spark,
      List<Cell> latest) {}

  /** The newest value of a series in the window, formatted, and the version it was measured on (as a tooltip). */
  record Cell(String text, String title) {
    static final Cell NONE = new Cell("—", "not measured in the recent versions");
  }

  private static final Fmt FMT = new Fmt();

  static ProductPage of(String product, List<ProductQueries.Version> all, List<ProductQueries.Version> window,
      List<ProductQueries.SeriesTrend> trends) {
    List<String> machines = new ArrayList<>(new TreeSet<>(trends.stream().map(ProductQueries.SeriesTrend::machine).toList()));
    Map<String, List<ProductQueries.SeriesTrend>> byMetric = new LinkedHashMap<>();
    for (var t : trends) {
      byMetric.computeIfAbsent(t.benchmark() + "\u0000" + t.metric(), k -> new ArrayList<>()).add(t);
    }
    List<String> windowNames = window.stream().map(ProductQueries.Version::name).toList();
    List<Row> rows = byMetric.values().stream().map(group -> row(group, machines, windowNames)).toList();
    return new ProductPage(product, machines, rows, all.stream().map(ProductQueries.Version::name).toList(), windowNames);
  }

  private static Row row(List<ProductQueries.SeriesTrend> group, List<String> machines, List<String> window) {
    var first = group.get(0);
    List<Cell> latest = new ArrayList<>();
    for (String machine : machines) {
      latest.add(group.stream().filter(t -> t.machine().equals(machine)).findFirst()
          .map(t -> latest(t.values(), window)).orElse(Cell.NONE));
    }
    Sparkline.Spark spark = Sparkline.of(group.stream().map(ProductQueries.SeriesTrend::machine).toList(),
        group.stream().map(t -> machines.indexOf(t.machine()) % 8).toList(),
        group.stream().map(ProductQueries.SeriesTrend::values).toList());
    return new Row(first.benchmark(), first.metric(), first.unit(), first.direction(), spark, latest);
  }

  private static Cell latest(Double[] values, List<String> window) {
    for (int i = values.length - 1; i >= 0; i--) {
      if (values[i] != null) {
        return new Cell(FMT.num(values[i]), "at " + window.get(i));
      }
    }
    return Cell.NONE;
  }
}
