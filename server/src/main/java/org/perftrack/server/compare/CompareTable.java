package org.perftrack.server.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.dashboard.Fmt;
import org.perftrack.server.detection.CompareService;
import org.perftrack.server.detection.ComparedMetric;
import org.perftrack.server.detection.DetectionProperties;
import org.perftrack.server.detection.Direction;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The compare table: detection's verdict per metric and machine, with each side's spread (lowest to
 * highest sample) and, beside every metric, the other metrics of the same benchmark.
 */
@Service
class CompareTable {

  public record Other(String metric, double ratio, String verdict, String verdictLabel) {}

  public record Row(String machine, String benchmark, String metric, String unit, Direction direction, double baseValue,
      double headValue, String baseSpread, String headSpread, double ratio, Double pValue, String verdict,
      String verdictLabel, int verdictRank, boolean paired, List<Other> others, String detection) {}

  public record Counts(long regressions, long improvements, long unchanged, long inconclusive, long insufficient) {}

  private record Spread(String machine, String benchmark, String metric, String version, double lo, double hi) {}

  static final String SPREADS = """
      SELECT m.name AS machine, s.benchmark, s.metric, v.name AS version, min(coalesce(r.min, x.lo)) AS lo,
             max(coalesce(r.max, x.hi)) AS hi
      FROM run ru
      JOIN product p ON p.id = ru.product_id
      JOIN version v ON v.id = ru.version_id
      JOIN machine m ON m.id = ru.machine_id
      JOIN result r ON r.run_id = ru.id
      JOIN series s ON s.id = r.series_id
      CROSS JOIN LATERAL (SELECT min(u) AS lo, max(u) AS hi FROM unnest(r.samples) AS u) AS x
      WHERE p.name = ? AND v.product_id = p.id AND v.name IN (?, ?) AND m.name = ANY (?)
        AND (?::text[] IS NULL OR s.benchmark = ANY (?::text[]))
      GROUP BY m.name, s.benchmark, s.metric, v.name""";

  /** Series per benchmark on the compared machines, from {@code from} on (the series table: no history). */
  static final String BENCHMARKS = """
      SELECT s.benchmark, count(*) AS series
      FROM series s JOIN product p ON p.id = s.product_id JOIN machine m ON m.id = s.machine_id
      WHERE p.name = ? AND m.name = ANY (?) AND s.benchmark >= ?
      GROUP BY s.benchmark ORDER BY s.benchmark LIMIT ?""";

  /** One page of a comparison: these benchmarks, and the first benchmark of the next page (null: none). */
  record Slice(List<String> benchmarks, String next) {}

  private record Count(String benchmark, long series) {}

  /**
   * The benchmarks, from {@code from} in name order, whose series on these machines add up to at most
   * {@code budget} comparisons (at least one benchmark): the most one request computes.
   */
  Slice slice(String product, List<String> machines, String from, int budget) {
    List<Count> counts = jdbc.sql(BENCHMARKS).params(product, machines.toArray(String[]::new),
        from == null ? "" : from, budget + 1).query(Count.class).list();
    List<String> page = new ArrayList<>();
    long total = 0;
    for (Count c : counts) {
      if (!page.isEmpty() && total + c.series() > budget) {
        return new Slice(page, c.benchmark());
      }
      page.add(c.benchmark());
      total += c.series();
    }
    return new Slice(page, null);
  }

  private static final Fmt FMT = new Fmt();
  private static final List<String> ORDER = List.of("regression", "inconclusive", "insufficient-data", "improvement", "unchanged");

  private final CompareService source;
  private final JdbcClient jdbc;
  private final DetectionProperties detection;

  CompareTable(CompareService source, JdbcClient jdbc, DetectionProperties detection) {
    this.source = source;
    this.jdbc = jdbc;
    this.detection = detection;
  }

  /**
   * The rows a reader compares: secondary metrics (context switches, CPU time) ride beside their
   * benchmark's primary metric in {@code others} instead of taking a row each; a benchmark that has
   * only secondary metrics keeps them.
   */
  List<Row> primary(List<Row> rows) {
    java.util.Set<String> withPrimary = new java.util.HashSet<>();
    rows.stream().filter(r -> !detection.isSecondary(r.metric()))
        .forEach(r -> withPrimary.add(r.machine() + '\u0000' + r.benchmark()));
    return rows.stream()
        .filter(r -> !detection.isSecondary(r.metric()) || !withPrimary.contains(r.machine() + '\u0000' + r.benchmark()))
        .toList();
  }

  /** {@code benchmarks}: only these (null: every benchmark). */
  List<Row> rows(String product, List<String> machines, String base, String head, List<String> benchmarks) {
    String[] only = benchmarks == null ? null : benchmarks.toArray(String[]::new);
    Map<String, Spread> spreads = new HashMap<>();
    jdbc.sql(SPREADS).params(product, base, head, machines.toArray(String[]::new), only, only).query(Spread.class).list()
        .forEach(s -> spreads.put(key(s.machine(), s.benchmark(), s.metric(), s.version()), s));
    // every machine in one read of results and windows, each judged on its own; assembled in the machines' order
    Map<String, List<ComparedMetric>> perMachine = source.compare(product, machines, base, head, benchmarks);
    List<Row> rows = new ArrayList<>();
    for (String machine : machines) {
      List<ComparedMetric> found = perMachine.getOrDefault(machine, List.of());
      for (ComparedMetric r : found) {
        rows.add(new Row(machine, r.benchmark(), r.metric(), r.unit(), r.direction(), r.baseValue(), r.headValue(),
            spread(spreads.get(key(machine, r.benchmark(), r.metric(), base))),
            spread(spreads.get(key(machine, r.benchmark(), r.metric(), head))), r.ratio(), r.pValue(), r.verdict().wire(),
            label(r.verdict().wire()), rank(r.verdict().wire()), r.paired(), others(r, found),
            r.detection() == null ? null : r.detection().label()));
      }
    }
    rows.sort(Comparator.comparingInt(Row::verdictRank).thenComparing(Row::benchmark).thenComparing(Row::metric)
        .thenComparing(Row::machine));
    return rows;
  }

  static Counts counts(List<Row> rows) {
    return new Counts(count(rows, "regression"), count(rows, "improvement"), count(rows, "unchanged"),
        count(rows, "inconclusive"), count(rows, "insufficient-data"));
  }

  private static long count(List<Row> rows, String verdict) {
    return rows.stream().filter(r -> r.verdict().equals(verdict)).count();
  }

  private static List<Other> others(ComparedMetric row, List<ComparedMetric> all) {
    return all.stream().filter(o -> o.benchmark().equals(row.benchmark()) && !o.metric().equals(row.metric()))
        .map(o -> new Other(o.metric(), o.ratio(), o.verdict().wire(), label(o.verdict().wire()))).toList();
  }

  static String label(String verdict) {
    return switch (verdict) {
      case "regression" -> "regression";
      case "improvement" -> "improvement";
      case "unchanged" -> "unchanged";
      case "inconclusive" -> "inconclusive";
      default -> "not enough data";
    };
  }

  private static int rank(String verdict) {
    int i = ORDER.indexOf(verdict);
    return i < 0 ? ORDER.size() : i;
  }

  private static String spread(Spread s) {
    return s == null ? null : FMT.num(s.lo()) + "–" + FMT.num(s.hi());
  }

  private static String key(String machine, String benchmark, String metric, String version) {
    return machine + '\u0000' + benchmark + '\u0000' + metric + '\u0000' + version;
  }
}
