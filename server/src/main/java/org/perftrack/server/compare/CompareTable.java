package org.perftrack.server.compare;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.detection.CompareService;
import org.perftrack.server.detection.ComparedMetric;
import org.perftrack.server.detection.DetectionProperties;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Verdict;
import org.perftrack.server.pages.Fmt;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The compare table: detection's verdict per metric and machine, with each side's spread (lowest to
 * highest sample) and, beside every metric, the other metrics of the same benchmark.
 */
@Service
class CompareTable {

  /**
   * Another metric of the row's benchmark, beside it (context switches, CPU time). Over all machines it was measured
   * on {@code machines} of the row's {@code of} machines; on one machine both are 1.
   */
  public record Other(String metric, double ratio, Verdict verdict, int machines, int of) {

    /** On one machine. */
    public Other(String metric, double ratio, Verdict verdict) {
      this(metric, ratio, verdict, 1, 1);
    }

    public String verdictLabel() {
      return label(verdict);
    }

    /** "on 2 of 4 machines" when some of the row's machines do not measure it, else null. */
    public String partly() {
      return machines < of ? "on " + machines + " of " + of + " machines" : null;
    }
  }

  /**
   * A compare page's row: the API's row ({@link ComparedMetric}) with its machine, the unit its values and spreads
   * are written in, named once beside them ({@link Fmt#scale}), each side's spread (null when not read) and the
   * benchmark's other metrics.
   */
  public record Row(String machine, ComparedMetric compared, Fmt.Scaled scale, String baseSpread, String headSpread,
      List<Other> others) {

    /** A row without spreads, written in the unit that suits its two values. */
    public Row(String machine, ComparedMetric compared, List<Other> others) {
      this(machine, compared, FMT.scale(compared.unit(), compared.baseValue(), compared.headValue()), null, null,
          others);
    }

    public String benchmark() {
      return compared.benchmark();
    }

    public String metric() {
      return compared.metric();
    }

    public String unit() {
      return compared.unit();
    }

    public Direction direction() {
      return compared.direction();
    }

    public double baseValue() {
      return compared.baseValue();
    }

    public double headValue() {
      return compared.headValue();
    }

    public double ratio() {
      return compared.ratio();
    }

    public Double pValue() {
      return compared.pValue();
    }

    public boolean paired() {
      return compared.paired();
    }

    public Verdict verdict() {
      return compared.verdict();
    }

    public String verdictLabel() {
      return label(compared.verdict());
    }

    public int verdictRank() {
      return rank(compared.verdict());
    }

    /** Inconclusive or not enough data: the change alone does not say what happened. */
    public boolean unsure() {
      return compared.verdict() == Verdict.INCONCLUSIVE || compared.verdict() == Verdict.INSUFFICIENT_DATA;
    }

    /** What detection says of a step between the two versions, as the page words it; null when nothing. */
    public String detectionLabel() {
      return compared.detection() == null ? null : compared.detection().label();
    }

    /**
     * Where the stored step between the two versions starts when it is ranged (the page says it as
     * {@link org.perftrack.server.detection.Regression#place()}: "between … (most likely …)"); else null.
     */
    public ComparedMetric.Suspects suspects() {
      return compared.suspects();
    }
  }

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

  /** The same for a branch's build (its samples' lowest and highest). */
  static final String BRANCH_SPREADS = """
      SELECT m.name AS machine, br.benchmark, br.metric, '' AS version, min(x) AS lo, max(x) AS hi
      FROM branch_result br
      JOIN branch_run ru ON ru.id = br.run_id
      JOIN branch b ON b.id = ru.branch_id
      JOIN product p ON p.id = b.product_id
      JOIN machine m ON m.id = ru.machine_id
      CROSS JOIN LATERAL unnest(br.samples) AS x
      WHERE p.name = ? AND b.name = ? AND b.deletion_id IS NULL AND ru.version = ? AND m.name = ANY (?)
        AND (?::text[] IS NULL OR br.benchmark = ANY (?::text[]))
      GROUP BY m.name, br.benchmark, br.metric""";

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
  /** The table's order: what needs a look first. */
  private static final List<Verdict> ORDER = List.of(Verdict.REGRESSION, Verdict.INCONCLUSIVE, Verdict.INSUFFICIENT_DATA,
      Verdict.IMPROVEMENT, Verdict.UNCHANGED);

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

  /**
   * {@code headBranch}: head is a build of this branch (null: a default version); {@code benchmarks}: only these
   * (null: every benchmark).
   */
  List<Row> rows(String product, List<String> machines, String base, String head, String headBranch,
      List<String> benchmarks) {
    String[] only = benchmarks == null ? null : benchmarks.toArray(String[]::new);
    Map<String, Spread> spreads = new HashMap<>();
    String[] on = machines.toArray(String[]::new);
    jdbc.sql(SPREADS).params(product, base, headBranch == null ? head : base, on, only, only).query(Spread.class)
        .list().forEach(s -> spreads.put(key(s.machine(), s.benchmark(), s.metric(), s.version()), s));
    if (headBranch != null) {
      jdbc.sql(BRANCH_SPREADS).params(product, headBranch, head, on, only, only).query(Spread.class).list()
          .forEach(s -> spreads.put(key(s.machine(), s.benchmark(), s.metric(), "\u0000" + head), s));
    }
    String headKey = headBranch == null ? head : "\u0000" + head;
    // every machine in one read of results and windows, each judged on its own; assembled in the machines' order
    Map<String, List<ComparedMetric>> perMachine = source.compare(product, machines, base, head, headBranch,
        benchmarks);
    List<Row> rows = new ArrayList<>();
    for (String machine : machines) {
      List<ComparedMetric> found = perMachine.getOrDefault(machine, List.of());
      for (ComparedMetric r : found) {
        Spread b = spreads.get(key(machine, r.benchmark(), r.metric(), base));
        Spread h = spreads.get(key(machine, r.benchmark(), r.metric(), headKey));
        // the spreads count too: a side of summaries only has a spread and no value to choose the unit by
        Fmt.Scaled scale = FMT.scale(r.unit(), r.baseValue(), r.headValue(), b == null ? null : b.hi(),
            h == null ? null : h.hi());
        rows.add(new Row(machine, r, scale, spread(scale, b), spread(scale, h), others(r, found)));
      }
    }
    rows.sort(Comparator.comparingInt(Row::verdictRank).thenComparing(Row::benchmark).thenComparing(Row::metric)
        .thenComparing(Row::machine));
    return rows;
  }

  static Counts counts(List<Row> rows) {
    return new Counts(count(rows, Verdict.REGRESSION), count(rows, Verdict.IMPROVEMENT),
        count(rows, Verdict.UNCHANGED), count(rows, Verdict.INCONCLUSIVE), count(rows, Verdict.INSUFFICIENT_DATA));
  }

  static long count(List<Row> rows, Verdict verdict) {
    return rows.stream().filter(r -> r.verdict() == verdict).count();
  }

  /** The benchmark's other metrics beside {@code row}: any of them, or only the secondary ones. */
  static List<Other> others(ComparedMetric row, List<ComparedMetric> all, boolean secondaryOnly,
      DetectionProperties detection) {
    return all.stream().filter(o -> o.benchmark().equals(row.benchmark()) && !o.metric().equals(row.metric())
            && (!secondaryOnly || detection.isSecondary(o.metric())))
        .map(o -> new Other(o.metric(), o.ratio(), o.verdict())).toList();
  }

  private List<Other> others(ComparedMetric row, List<ComparedMetric> all) {
    return others(row, all, false, detection);
  }

  /** A verdict as the page says it. */
  static String label(Verdict verdict) {
    return verdict == Verdict.INSUFFICIENT_DATA ? "not enough data" : verdict.wire();
  }

  static int rank(Verdict verdict) {
    return ORDER.indexOf(verdict);
  }

  private static String spread(Fmt.Scaled scale, Spread s) {
    return s == null ? null : scale.range(s.lo(), s.hi());
  }

  private static String key(String machine, String benchmark, String metric, String version) {
    return machine + '\u0000' + benchmark + '\u0000' + metric + '\u0000' + version;
  }
}
