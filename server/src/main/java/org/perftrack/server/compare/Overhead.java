package org.perftrack.server.compare;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.db.SqlArrays;
import org.perftrack.server.detection.ComparedMetric;
import org.perftrack.server.detection.Comparison;
import org.perftrack.server.detection.ComparisonResult;
import org.perftrack.server.detection.DetectionProperties;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.PointReads;
import org.perftrack.server.detection.VersionComparer;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.NotFound;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The cost of a layer: one product's version against another product's on the same machine (or on
 * one declared comparable), e.g. {@code cygwin@1.5.24-2} over {@code linux@6.1.0}. The ratio is the
 * overhead (head / base); runs of both sides in one agent session (one batch) are compared pair by
 * pair, so the machine's drift between sessions cancels.
 */
@Service
public class Overhead {

  /** {@code product@version} on a machine. */
  public record Side(String product, String version, String machine) {
    public String label() {
      return product + "@" + version;
    }
  }

  /** Every metric measured on both sides, in compare's row ({@code detection} null: no series joins two products). */
  public record Result(Side base, Side head, List<ComparedMetric> rows) {}

  private record Run(String batch, double[] samples) {}

  private record Measured(String benchmark, String metric, String unit, Direction direction, List<Run> runs) {}

  static final String RESULTS = """
      SELECT s.benchmark, s.metric, s.unit, s.direction, run.batch::text AS batch, r.samples
      FROM series s
      JOIN product p ON p.id = s.product_id
      JOIN machine m ON m.id = s.machine_id
      JOIN version v ON v.product_id = p.id AND v.name = ?
      JOIN result r ON r.series_id = s.id AND r.version_id = v.id
      JOIN run ON run.id = r.run_id
      WHERE p.name = ? AND m.name = ?
      ORDER BY s.benchmark, s.metric, run.started_at NULLS LAST, r.run_id""";

  private final JdbcClient jdbc;
  private final DetectionProperties detection;
  private final PointReads points;
  private final VersionComparer comparer = new VersionComparer();

  /** {@code detection}: the server's configured {@code perftrack.detection.*}, whose min-change makes a verdict. */
  Overhead(JdbcClient jdbc, DetectionProperties detection, PointReads points) {
    this.jdbc = jdbc;
    this.points = points;
    this.detection = detection;
  }

  /** "linux@6.1.0" → linux, 6.1.0; the field names the parameter in a 400. */
  public static Side side(String text, String machine, String field) {
    int at = text == null ? -1 : text.indexOf('@');
    if (at <= 0 || at == text.length() - 1) {
      throw new InvalidInput(field, "must be product@version, e.g. linux@6.1.0");
    }
    if (machine == null || machine.isBlank()) {
      throw new InvalidInput("machine", "is required to compare two products");
    }
    return new Side(text.substring(0, at), text.substring(at + 1), machine);
  }

  public static boolean isProductAtVersion(String text) {
    return text != null && text.indexOf('@') > 0;
  }

  public Result compare(Side base, Side head) {
    Map<String, Measured> b = measured(base, "base");
    Map<String, Measured> h = measured(head, "head");
    List<Measured[]> both = new ArrayList<>();
    b.forEach((key, m) -> {
      if (h.containsKey(key)) {
        both.add(new Measured[] {m, h.get(key)});
      }
    });
    List<Comparison> comparisons = both.stream().map(pair -> comparison(pair, detection.minChange())).toList();
    List<ComparisonResult> results = comparer.compareAll(comparisons);
    List<ComparedMetric> rows = new ArrayList<>();
    for (int i = 0; i < both.size(); i++) {
      Measured m = both.get(i)[1];
      ComparisonResult r = results.get(i);
      rows.add(new ComparedMetric(m.benchmark(), m.metric(), m.unit(), m.direction(), r.baseValue(), r.headValue(),
          r.ratio(), Double.isNaN(r.pValue()) ? null : r.pValue(), r.verdict(), comparisons.get(i).paired(), null));
    }
    return new Result(base, head, rows);
  }

  /** One version of the layer against the fixed baseline: its level (trimmed mean) and the ratio. */
  public record VersionOverhead(String version, double value, double ratio) {

    /** "×31", "×44.9": the ratio as the overhead view words it. */
    public String ratioText() {
      return org.perftrack.server.web.Wording.ratio(ratio);
    }

    /** Width of a bar on a log scale, 0–100 for ×1 to ×1000. */
    public long bar() {
      return Math.min(100, Math.round(100 * Math.log10(Math.max(1, ratio)) / 3));
    }
  }

  /** The baseline's level and every version's overhead over it, oldest version first. */
  public record OverTime(Side base, double baseValue, List<VersionOverhead> points) {}

  /**
   * "fork costs 31× native in 1.5.19-4, 45× in 1.5.24-2": every measured version of {@code product} on
   * {@code machine} over the baseline {@code base}; empty when the baseline lacks this metric.
   */
  public java.util.Optional<OverTime> overTime(String product, String machine, String benchmark, String metric,
      Side base) {
    java.util.Optional<Double> baseLevel = points.levels(base.product(), base.machine(), benchmark, metric).stream()
        .filter(l -> l.version().equals(base.version())).map(PointReads.Level::level).findFirst();
    if (baseLevel.isEmpty() || !(baseLevel.get() > 0)) {
      return java.util.Optional.empty();
    }
    List<VersionOverhead> over = points.levels(product, machine, benchmark, metric).stream()
        .map(l -> new VersionOverhead(l.version(), l.level(), l.level() / baseLevel.get())).toList();
    return java.util.Optional.of(new OverTime(base, baseLevel.get(), over));
  }

  /** Other products measured on the machine with the same benchmark and metric: the baselines to offer. */
  public List<String> baselines(String product, String machine, String benchmark, String metric) {
    return points.otherProductsMeasuring(product, machine, benchmark, metric);
  }

  private Map<String, Measured> measured(Side side, String field) {
    Map<String, Measured> out = new LinkedHashMap<>();
    jdbc.sql(RESULTS).params(side.version(), side.product(), side.machine()).query((ResultSet rs) -> {
      out.computeIfAbsent(rs.getString("benchmark") + '\u0000' + rs.getString("metric"), k -> measured(rs))
          .runs().add(new Run(rs.getString("batch"), SqlArrays.doubles(rs.getArray("samples"))));
    });
    if (out.isEmpty()) {
      throw new NotFound(field + ": " + side.label() + " was not measured on machine " + side.machine());
    }
    return out;
  }

  private static Measured measured(ResultSet rs) {
    try {
      return new Measured(rs.getString("benchmark"), rs.getString("metric"), rs.getString("unit"),
          Direction.of(rs.getString("direction")), new ArrayList<>());
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Comparison comparison(Measured[] pair, double minChange) {
    Direction direction = pair[1].direction();
    for (Run b : pair[0].runs()) {
      for (Run h : pair[1].runs()) {
        if (b.batch() != null && b.batch().equals(h.batch()) && b.samples().length == h.samples().length) {
          return new Comparison(b.samples(), h.samples(), true, direction, minChange, Double.NaN);
        }
      }
    }
    return new Comparison(concat(pair[0].runs()), concat(pair[1].runs()), false, direction, minChange, Double.NaN);
  }

  private static double[] concat(List<Run> runs) {
    return runs.stream().flatMapToDouble(r -> java.util.Arrays.stream(r.samples())).toArray();
  }

}
