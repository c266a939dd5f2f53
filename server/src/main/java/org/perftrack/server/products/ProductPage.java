package org.perftrack.server.products;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.perftrack.server.dashboard.Fmt;

/**
 * The product page's view: one row per benchmark/metric with a sparkline over the recent versions
 * and the latest value on each machine. Primary metrics come first; a benchmark's secondary metrics
 * (context switches, CPU time) are folded under its primary row instead of taking rows of their own.
 */
record ProductPage(String product, List<String> machines, List<Row> rows, long versionCount,
    List<String> window) {

  /** One benchmark/metric. {@code latest} has one cell per machine column (null where not measured). */
  record Row(String benchmark, String metric, String unit, String direction, Sparkline.Spark spark,
      List<Cell> latest, List<Row> secondary, long openRegressions) {

    Row withSecondary(List<Row> folded) {
      return new Row(benchmark, metric, unit, direction, spark, latest, folded, openRegressions);
    }
  }

  /** The newest value of a series in the window, formatted, and the version it was measured on (as a tooltip). */
  record Cell(String text, String title) {
    static final Cell NONE = new Cell("—", "not measured in the recent versions");
  }

  private static final Fmt FMT = new Fmt();

  static ProductPage of(String product, long versionCount, List<ProductQueries.Version> window,
      List<ProductQueries.SeriesTrend> trends, Predicate<String> secondary, Map<String, Long> open) {
    List<String> machines = new ArrayList<>(new TreeSet<>(trends.stream().map(ProductQueries.SeriesTrend::machine).toList()));
    Map<String, List<ProductQueries.SeriesTrend>> byMetric = new LinkedHashMap<>();
    for (var t : trends) {
      byMetric.computeIfAbsent(t.benchmark() + "\u0000" + t.metric(), k -> new ArrayList<>()).add(t);
    }
    List<String> windowNames = window.stream().map(ProductQueries.Version::name).toList();
    List<Row> all = byMetric.values().stream().map(g -> row(g, machines, windowNames, open)).toList();
    return new ProductPage(product, machines, fold(all, secondary),
        versionCount, windowNames);
  }

  private static List<Row> fold(List<Row> all, Predicate<String> secondary) {
    List<Row> out = new ArrayList<>();
    for (Row r : all) {
      if (!secondary.test(r.metric())) {
        out.add(r.withSecondary(all.stream()
            .filter(o -> o.benchmark().equals(r.benchmark()) && secondary.test(o.metric())).toList()));
      }
    }
    // a benchmark that reported only secondary metrics keeps them as rows
    all.stream().filter(r -> secondary.test(r.metric()))
        .filter(r -> out.stream().noneMatch(o -> o.benchmark().equals(r.benchmark()))).forEach(out::add);
    return out;
  }

  private static Row row(List<ProductQueries.SeriesTrend> group, List<String> machines, List<String> window,
      Map<String, Long> open) {
    var first = group.get(0);
    List<Cell> latest = new ArrayList<>();
    for (String machine : machines) {
      latest.add(group.stream().filter(t -> t.machine().equals(machine)).findFirst()
          .map(t -> latest(t.values(), window)).orElse(Cell.NONE));
    }
    Sparkline.Spark spark = Sparkline.of(group.stream().map(ProductQueries.SeriesTrend::machine).toList(),
        group.stream().map(t -> machines.indexOf(t.machine()) % 8).toList(),
        group.stream().map(ProductQueries.SeriesTrend::values).toList());
    return new Row(first.benchmark(), first.metric(), first.unit(), first.direction(), spark, latest, List.of(),
        open.getOrDefault(first.benchmark() + "\u0000" + first.metric(), 0L));
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
