package org.perftrack.server.detection;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.db.SqlArrays;
import org.perftrack.server.problems.NotFound;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Two versions side by side on one machine: every metric measured in both, judged by
 * {@link VersionComparer}. Runs of both versions in one batch are compared pair by pair; otherwise
 * the series' own between-session noise (from the versions around head) widens the comparison.
 */
@Service
public class CompareService {

  private record Run(String version, String batch, double[] samples) {}

  private record SeriesRuns(long id, String machine, String benchmark, String metric, String unit,
      Direction direction, List<Run> runs) {}

  private final JdbcClient jdbc;
  private final WindowRead windows;
  private final BenchmarkSettings settings;
  private final DetectionProperties properties;
  private final VersionComparer comparer = new VersionComparer();

  CompareService(JdbcClient jdbc, WindowRead windows, BenchmarkSettings settings, DetectionProperties properties) {
    this.jdbc = jdbc;
    this.windows = windows;
    this.settings = settings;
    this.properties = properties;
  }

  /** The machines' results of both versions: one statement for all of them. */
  static final String RESULTS = """
      SELECT s.id, m.name AS machine, s.benchmark, s.metric, s.unit, s.direction, v.name AS version,
             run.batch::text AS batch, r.samples
      FROM series s
      JOIN product p ON p.id = s.product_id
      JOIN machine m ON m.id = s.machine_id
      JOIN version v ON v.product_id = p.id AND v.name IN (?, ?)
      JOIN result r ON r.series_id = s.id AND r.version_id = v.id
      JOIN run ON run.id = r.run_id
      WHERE p.name = ? AND m.name = ANY (?::text[]) AND (?::text[] IS NULL OR s.benchmark = ANY (?::text[]))
      ORDER BY m.name, s.benchmark, s.metric, run.started_at NULLS LAST, r.run_id""";

  static final String VERSION_ID = """
      SELECT v.id FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ? AND v.name = ?
        AND v.deletion_id IS NULL""";

  /**
   * Every metric the machine measured in both versions, judged together; empty when it measured only
   * one of them.
   *
   * @throws NotFound when there is no such product, or it has no such base or head version
   */
  public List<ComparedMetric> compare(String product, String machine, String base, String head) {
    return compare(product, machine, base, head, null);
  }

  /** The same for these benchmarks only ({@code null}: all), so that a page can bound its cost. */
  public List<ComparedMetric> compare(String product, String machine, String base, String head,
      List<String> benchmarks) {
    return compare(product, List.of(machine), base, head, benchmarks).getOrDefault(machine, List.of());
  }

  /**
   * The same on several machines at once (machine → its metrics; a machine that measured only one version is
   * absent): one read of the results and one of the windows for all of them, each machine still judged on its
   * own (its own multiple-testing correction), as if compared alone.
   */
  public Map<String, List<ComparedMetric>> compare(String product, List<String> machines, String base, String head,
      List<String> benchmarks) {
    return compare(product, machines, base, head, null, benchmarks);
  }

  /**
   * The same with {@code head} a build of branch {@code headBranch} (null: the default branch), judged with the
   * noise of the default history around {@code base}: a pull request's build next to any default version.
   */
  public Map<String, List<ComparedMetric>> compare(String product, List<String> machines, String base, String head,
      String headBranch, List<String> benchmarks) {
    String[] only = benchmarks == null ? null : benchmarks.toArray(String[]::new);
    long baseId = versionId(product, base, "base");
    long headId = headBranch == null ? versionId(product, head, "head") : baseId;
    Map<Long, SeriesRuns> series = new LinkedHashMap<>();
    String[] on = machines.toArray(String[]::new);
    jdbc.sql(RESULTS).params(base, headBranch == null ? head : base, product, on, only, only)
        .query((ResultSet rs) -> add(series, rs, rs.getString("version")));
    if (headBranch != null) {
      // the build's own name: a branch's version may be named like a default one
      String build = "\u0000" + headBranch + "\u0000" + head;
      jdbc.sql(BRANCH_RESULTS).params(product, headBranch, head, on, only, only)
          .query((ResultSet rs) -> add(series, rs, build));
      if (series.values().stream().noneMatch(s -> has(s, build))) {
        throw new NotFound("head: branch " + headBranch + " of " + product + " has no build " + head + " there");
      }
      head = build;
    }
    return judged(product, base, head, baseId, headId, series);
  }

  /** Runs of a branch's build, as {@link #RESULTS} reads the default branch's. */
  static final String BRANCH_RESULTS = """
      SELECT s.id, m.name AS machine, s.benchmark, s.metric, s.unit, s.direction, NULL AS batch, br.samples
      FROM branch_result br
      JOIN branch_run ru ON ru.id = br.run_id
      JOIN branch b ON b.id = ru.branch_id
      JOIN product p ON p.id = b.product_id
      JOIN machine m ON m.id = ru.machine_id
      JOIN series s ON s.id = br.series_id
      WHERE p.name = ? AND b.name = ? AND b.deletion_id IS NULL AND ru.version = ? AND m.name = ANY (?::text[])
        AND (?::text[] IS NULL OR s.benchmark = ANY (?::text[]))
      ORDER BY m.name, s.benchmark, s.metric, ru.received_at, ru.id""";

  private static void add(Map<Long, SeriesRuns> series, ResultSet rs, String version) throws java.sql.SQLException {
    series.computeIfAbsent(rs.getLong("id"), id -> new SeriesRuns(id, uncheckedString(rs, "machine"),
        uncheckedString(rs, "benchmark"), uncheckedString(rs, "metric"), uncheckedString(rs, "unit"),
        Direction.of(uncheckedString(rs, "direction")), new ArrayList<>())).runs().add(new Run(version, rs.getString("batch"),
        SqlArrays.doubles(rs.getArray("samples"))));
  }

  private Map<String, List<ComparedMetric>> judged(String product, String base, String head, long baseId, long headId,
      Map<Long, SeriesRuns> series) {
    List<SeriesRuns> both = series.values().stream().filter(s -> has(s, base) && has(s, head)).toList();
    if (both.isEmpty()) {
      return Map.of();
    }
    Map<Long, SeriesWindow> history = windows.windows(both.stream().map(SeriesRuns::id).toList(), headId,
        properties.window());
    var knobs = settings.productId(product).map(settings::forProduct).orElse(Map.of());
    Map<String, List<SeriesRuns>> byMachine = new LinkedHashMap<>();
    both.forEach(s -> byMachine.computeIfAbsent(s.machine(), k -> new ArrayList<>()).add(s));
    // a branch's build (headId = baseId) has no steps of the default branch between it and base
    Map<Long, Steps> steps = headId == baseId ? Map.of()
        : stepsBetween(both.stream().map(SeriesRuns::id).toList(), baseId, headId);
    Map<String, List<ComparedMetric>> out = new LinkedHashMap<>();
    byMachine.forEach((machine, list) -> {
      List<Comparison> comparisons = list.stream().map(s -> comparison(s, base, head, history.get(s.id()),
          minChange(knobs.get(s.benchmark())))).toList();
      List<ComparisonResult> results = comparer.compareAll(comparisons);
      List<ComparedMetric> rows = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        SeriesRuns s = list.get(i);
        ComparisonResult r = results.get(i);
        Steps step = steps.get(s.id());
        rows.add(new ComparedMetric(s.benchmark(), s.metric(), s.unit(), s.direction(), r.baseValue(),
            r.headValue(), r.ratio(), Double.isNaN(r.pValue()) ? null : r.pValue(), r.verdict(),
            comparisons.get(i).paired(),
            // a branch's build is judged on its own (its branch page); the default branch's detection says nothing of it
            headId == baseId && !base.equals(head) ? null
                : DetectionState.of(step == null ? null : step.confirmed(), r.verdict()),
            step == null ? null : step.suspects()));
      }
      out.put(machine, rows);
    });
    return out;
  }

  /**
   * The standing steps (not withdrawn) of these series at a version after the older of the two and up to the newer:
   * per series whether they are all confirmed, and the largest one's place (its likeliest version and, when ranged,
   * its first and last suspect).
   */
  static final String STEPS_BETWEEN = """
      SELECT DISTINCT ON (rg.series_id) rg.series_id,
             bool_and(rg.confirmed) OVER (PARTITION BY rg.series_id) AS confirmed,
             v.name AS version, fs.name AS first_suspect, ls.name AS last_suspect
      FROM regression rg JOIN version v ON v.id = rg.version_id
      LEFT JOIN version fs ON fs.id = rg.first_suspect_version_id
      LEFT JOIN version ls ON ls.id = rg.last_suspect_version_id
      WHERE rg.series_id = ANY(?::bigint[]) AND rg.status <> 'withdrawn'
        AND v.sort_key > (SELECT least(a.sort_key, b.sort_key) FROM version a, version b WHERE a.id = ? AND b.id = ?)
        AND v.sort_key <= (SELECT greatest(a.sort_key, b.sort_key) FROM version a, version b WHERE a.id = ? AND b.id = ?)
      ORDER BY rg.series_id, abs(ln(greatest(rg.ratio, 1e-300))) DESC, rg.id""";

  /** A series' stored steps between the two versions: all confirmed or not, and the largest one's suspects. */
  private record Steps(boolean confirmed, ComparedMetric.Suspects suspects) {}

  private Map<Long, Steps> stepsBetween(List<Long> seriesIds, long baseId, long headId) {
    Map<Long, Steps> out = new java.util.HashMap<>();
    jdbc.sql(STEPS_BETWEEN).params(seriesIds.toArray(Long[]::new), baseId, headId, baseId, headId)
        .query((ResultSet rs) -> {
          String version = rs.getString("version");
          String first = rs.getString("first_suspect");
          String last = rs.getString("last_suspect");
          boolean ranged = first != null && last != null && !first.equals(last);
          out.put(rs.getLong("series_id"), new Steps(rs.getBoolean("confirmed"),
              ranged ? new ComparedMetric.Suspects(version, first, last) : null));
        });
    return out;
  }

  private double minChange(BenchmarkSettings.Setting knob) {
    return knob == null || knob.minChange() == null ? properties.minChange() : knob.minChange();
  }

  private static Comparison comparison(SeriesRuns s, String base, String head, SeriesWindow history,
      double minChange) {
    Direction direction = s.direction();
    for (Run b : s.runs()) {
      for (Run h : s.runs()) {
        if (b.version().equals(base) && h.version().equals(head) && b.batch() != null
            && b.batch().equals(h.batch()) && b.samples().length == h.samples().length) {
          return new Comparison(b.samples(), h.samples(), true, direction, minChange, Double.NaN);
        }
      }
    }
    return new Comparison(samples(s, base), samples(s, head), false, direction, minChange, noise(history));
  }

  /** Between-session noise of the series around head, when it has enough versions to say. */
  private static double noise(SeriesWindow history) {
    if (history == null || history.points().size() < NoiseModel.MIN_HISTORY
        || !Levels.allPositive(history.points())) {
      return Double.NaN;
    }
    return NoiseModel.estimate(Levels.of(history.points())).sigma();
  }

  private static boolean has(SeriesRuns s, String version) {
    return s.runs().stream().anyMatch(r -> r.version().equals(version));
  }

  private static double[] samples(SeriesRuns s, String version) {
    return RunPoints.concat(s.runs().stream().filter(r -> r.version().equals(version))
        .map(Run::samples).toList());
  }

  private long versionId(String product, String version, String field) {
    return jdbc.sql(VERSION_ID).params(product, version).query(Long.class).optional()
        .orElseThrow(() -> jdbc.sql(PRODUCT_EXISTS).param(product).query(Boolean.class).single()
            ? new NotFound(field + ": product " + product + " has no version " + version)
            : new NotFound("product: there is no product " + product));
  }

  static final String PRODUCT_EXISTS = "SELECT EXISTS (SELECT 1 FROM product WHERE name = ? AND deletion_id IS NULL)";

  private static String uncheckedString(ResultSet rs, String column) {
    try {
      return rs.getString(column);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
