package org.perftrack.server.products;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.pages.Fmt;

/**
 * The product page's view: one row per benchmark/metric with a sparkline over the recent versions
 * and the latest value on each machine. Primary metrics come first; a benchmark's secondary metrics
 * (context switches, CPU time) are folded under its primary row instead of taking rows of their own.
 */
record ProductPage(String product, List<String> machines, List<Row> rows, long versionCount,
    List<String> window, Slice slice) {

  /**
   * Sparklines (series of primary metrics) per page: with 20 machines ten benchmarks, so the page reads about
   * 8,000 levels however many benchmarks the product has (was every series: 40,000 at 25 benchmarks).
   */
  static final int PAGE_SERIES = 200;

  /**
   * One page of the benchmark list: the benchmarks after {@code after} (by name) whose words contain every word of
   * {@code filter}, until {@link #PAGE_SERIES} sparklines; {@code next} the last benchmark shown when more follow.
   * {@code machines} are every machine of the product (the columns stay the same on every page).
   */
  record Slice(List<ProductQueries.Series> series, Set<Long> latestOnly, List<String> machines, int benchmarks,
      String after, String filter, String next) {

    static Slice of(List<ProductQueries.Series> all, String after, String filter, Predicate<String> secondary,
        int pageSeries) {
      List<String> machines = new ArrayList<>(new TreeSet<>(all.stream().map(ProductQueries.Series::machine).toList()));
      List<String> words = filter == null ? List.of()
          : List.of(filter.toLowerCase(Locale.ROOT).split("\\s+")).stream().filter(w -> !w.isEmpty()).toList();
      Map<String, List<ProductQueries.Series>> byBenchmark = new TreeMap<>();
      for (var s : all) {
        String text = (s.benchmark() + " " + s.metric()).toLowerCase(Locale.ROOT);
        if (words.stream().allMatch(text::contains)) {
          byBenchmark.computeIfAbsent(s.benchmark(), k -> new ArrayList<>()).add(s);
        }
      }
      List<ProductQueries.Series> page = new ArrayList<>();
      Set<Long> latestOnly = new HashSet<>();
      int sparklines = 0;
      String next = null;
      for (var e : byBenchmark.entrySet()) {
        if (after != null && e.getKey().compareTo(after) <= 0) {
          continue;
        }
        if (sparklines >= pageSeries) {
          next = page.get(page.size() - 1).benchmark();
          break;
        }
        // a benchmark that reported only secondary metrics draws them as rows of their own
        boolean anyPrimary = e.getValue().stream().anyMatch(s -> !secondary.test(s.metric()));
        for (var s : e.getValue()) {
          if (anyPrimary && secondary.test(s.metric())) {
            latestOnly.add(s.id());
          } else {
            sparklines++;
          }
          page.add(s);
        }
      }
      return new Slice(page, latestOnly, machines, byBenchmark.size(), after, filter, next);
    }
  }

  /** One benchmark/metric. {@code latest} has one cell per machine column (null where not measured). */
  record Row(String benchmark, String metric, String unit, Direction direction, Sparkline.Spark spark,
      List<Cell> latest, List<Row> secondary, long openRegressions) {

    Row withSecondary(List<Row> folded) {
      return new Row(benchmark, metric, unit, direction, spark, latest, folded, openRegressions);
    }
  }

  /**
   * The newest value of a series in the window: its number in the unit its row names ({@code text}), with its unit
   * where none is named ({@code quantity}, a folded metric's), and the version it was measured on (as a tooltip).
   */
  record Cell(String text, String quantity, String title) {
    static final Cell NONE = new Cell("—", "—", "not measured in the recent versions");
  }

  private static final Fmt FMT = new Fmt();

  static ProductPage of(String product, long versionCount, List<ProductQueries.Version> window, Slice slice,
      List<ProductQueries.SeriesTrend> trends, Predicate<String> secondary, Map<String, Long> open) {
    List<String> machines = slice.machines();
    Map<String, List<ProductQueries.SeriesTrend>> byMetric = new LinkedHashMap<>();
    for (var t : trends) {
      byMetric.computeIfAbsent(t.benchmark() + "\u0000" + t.metric(), k -> new ArrayList<>()).add(t);
    }
    List<String> windowNames = window.stream().map(ProductQueries.Version::name).toList();
    List<Row> all = byMetric.values().stream().map(g -> row(g, machines, windowNames, open)).toList();
    return new ProductPage(product, machines, fold(all, secondary),
        versionCount, windowNames, slice);
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
    List<Integer> newest = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (String machine : machines) {
      var trend = group.stream().filter(t -> t.machine().equals(machine)).findFirst();
      int at = trend.map(t -> newest(t.values())).orElse(-1);
      newest.add(at);
      values.add(at < 0 ? null : trend.get().values()[at]);
    }
    Fmt.Scaled scale = FMT.scaleAll(first.unit(), values);
    List<Cell> latest = new ArrayList<>();
    for (int i = 0; i < machines.size(); i++) {
      latest.add(newest.get(i) < 0 ? Cell.NONE : new Cell(scale.num(values.get(i)),
          FMT.quantity(values.get(i), first.unit()), "at " + window.get(newest.get(i))));
    }
    Sparkline.Spark spark = Sparkline.of(group.stream().map(ProductQueries.SeriesTrend::machine).toList(),
        group.stream().map(t -> machines.indexOf(t.machine()) % 8).toList(),
        group.stream().map(ProductQueries.SeriesTrend::values).toList());
    return new Row(first.benchmark(), first.metric(), scale.unit(), first.direction(), spark, latest, List.of(),
        open.getOrDefault(first.benchmark() + "\u0000" + first.metric(), 0L));
  }

  /** The index of the newest value in the window, -1 when there is none. */
  private static int newest(Double[] values) {
    for (int i = values.length - 1; i >= 0; i--) {
      if (values[i] != null) {
        return i;
      }
    }
    return -1;
  }
}
