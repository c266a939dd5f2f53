package org.perftrack.server.runs;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.perftrack.server.detection.CompareService;
import org.perftrack.server.detection.ComparedMetric;
import org.perftrack.server.detection.DetectionProperties;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.detection.RunLevels;
import org.perftrack.server.detection.Verdict;
import org.perftrack.server.problems.NotFound;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * What one run showed, metric by metric, for a CI system to display (a pull request comment, a test report): a
 * default-branch run against the version before it in each series, with the regressions its upload raised; a
 * branch run against its start point, with the verdicts it was judged with. Rows that changed come first.
 */
@Service
public class RunReports {

  /**
   * One metric of the run. {@code verdict} is null for a secondary metric (shown, not judged);
   * {@link Verdict#INSUFFICIENT_DATA} when there was nothing to compare with. {@code pValue} is set for a step and
   * for an inconclusive row (the two versions compared, as the compare page does).
   */
  public record Row(String benchmark, String metric, String unit, Direction direction, String baselineVersion,
      Double baselineValue, Double value, Double ratio, Double pValue, Verdict verdict) {

    boolean changed() {
      return verdict == Verdict.REGRESSION || verdict == Verdict.IMPROVEMENT || verdict == Verdict.INCONCLUSIVE;
    }
  }

  /**
   * A run's report; {@code branch} and {@code startPoint} null for a default-branch run. {@code session}: how its
   * session was judged (null outside a session of several runs).
   */
  public record Report(String id, String product, String version, String machine, String branch, String startPoint,
      List<Row> rows, @com.fasterxml.jackson.annotation.JsonInclude(
          com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Session session) {

    public Report(String id, String product, String version, String machine, String branch, String startPoint,
        List<Row> rows) {
      this(id, product, version, machine, branch, startPoint, rows, null);
    }

    /** Not judged yet: its session waits for its other runs, and its rows say nothing of steps. */
    public boolean waiting() {
      return session != null && !session.judged();
    }

    public long regressions() {
      return rows.stream().filter(r -> r.verdict() == Verdict.REGRESSION).count();
    }
  }

  /**
   * The session a run belongs to: its runs are judged together, each report lists the session's regressions at its
   * own version. {@code judged} false while the server waits for the session's other runs.
   */
  public record Session(int runs, boolean judged, String note) {

    static final String JUDGED = "judged with its session of %d runs: the regressions at each of its versions are"
        + " in that version's report";
    static final String WAITING = "not judged yet: the server judges it with its session once the session's other"
        + " runs are stored, or once none of them arrived for a while (perftrack.detection.batch-settle); the"
        + " regressions then show on the server's pages";
  }

  private static final List<Verdict> ORDER = List.of(Verdict.REGRESSION, Verdict.IMPROVEMENT, Verdict.INCONCLUSIVE,
      Verdict.UNCHANGED, Verdict.INSUFFICIENT_DATA);

  private final JdbcClient jdbc;
  private final Regressions regressions;
  private final DetectionProperties detection;
  private final RunLevels levels;

  private final RunQueries runs;
  private final CompareService compare;

  RunReports(JdbcClient jdbc, Regressions regressions, DetectionProperties detection, RunLevels levels,
      RunQueries runs, CompareService compare) {
    this.compare = compare;
    this.runs = runs;
    this.levels = levels;
    this.jdbc = jdbc;
    this.regressions = regressions;
    this.detection = detection;
  }

  public Optional<Report> of(UUID id) {
    return defaultRun(id).or(() -> branchRun(id)).map(r -> new Report(r.id(), r.product(), r.version(), r.machine(),
        r.branch(), r.startPoint(), sorted(r.rows()), r.session()));
  }

  private static List<Row> sorted(List<Row> rows) {
    List<Row> out = new ArrayList<>(rows);
    out.sort(Comparator.comparingInt((Row r) -> r.verdict() == null ? ORDER.size() : ORDER.indexOf(r.verdict()))
        .thenComparing(Row::benchmark).thenComparing(Row::metric));
    return out;
  }

  static final String DEFAULT_RUN = """
      SELECT r.id::text AS id, p.name AS product, v.name AS version, m.name AS machine
      FROM run r JOIN product p ON p.id = r.product_id JOIN version v ON v.id = r.version_id
      JOIN machine m ON m.id = r.machine_id WHERE r.id = ?""";

  static final String VERSIONS_OF_RUNS = """
      SELECT DISTINCT v.name FROM run r JOIN version v ON v.id = r.version_id WHERE r.id = ANY(?::uuid[])""";

  private Optional<Report> defaultRun(UUID id) {
    return jdbc.sql(DEFAULT_RUN).param(id).query((rs, i) -> {
      String version = rs.getString("version");
      List<UUID> session = runs.session(id);
      Session judged = null;
      List<Regression> found = regressions.createdBy(id).stream()
          .filter(g -> g.status() != Regression.Status.WITHDRAWN).toList();
      if (session.size() > 1) {
        // a session's runs are judged together (the regressions are recorded as the upload that completed it
        // raised them): each run's report lists those at its own version
        boolean waiting = runs.waitsForItsSession(id);
        judged = new Session(session.size(), !waiting, waiting ? Session.WAITING
            : String.format(java.util.Locale.ROOT, Session.JUDGED, session.size()));
        java.util.Set<String> versions = new java.util.HashSet<>(jdbc.sql(VERSIONS_OF_RUNS)
            .param(session.toArray(UUID[]::new)).query(String.class).list());
        List<Regression> mine = new ArrayList<>();
        regressions.createdBy(session).stream().filter(g -> g.version().equals(version)
            && g.status() != Regression.Status.WITHDRAWN).forEach(mine::add);
        // one placed at a version none of the session's runs measured stays with the run that raised it
        found.stream().filter(g -> !versions.contains(g.version())).forEach(mine::add);
        found = mine;
      }
      Map<String, Regression> raised = new HashMap<>();
      found.forEach(g -> raised.put(g.benchmark() + '\0' + g.metric(), g));
      // a step at this version is this run's whoever placed it there (the lab's bisection, a later upload)
      String product = rs.getString("product");
      String machine = rs.getString("machine");
      regressions.page(new Regressions.Criteria(product, machine, version, Regression.Status.VISIBLE,
          Regression.Kind.REGRESSION), Regressions.From.START, 0, null, 1000).rows()
          .forEach(g -> raised.put(g.benchmark() + '\0' + g.metric(), g));
      List<Row> rows = levels.of(id).stream().map(l -> {
        Regression g = raised.get(l.benchmark() + '\0' + l.metric());
        return g == null ? row(l.benchmark(), l.metric(), l.unit(), l.direction(), l.baselineVersion(),
            l.baselineValue(), l.value(), null) : g.version().equals(version) ? of(g) : since(g, l);
      }).toList();
      return new Report(rs.getString("id"), product, version, machine, null, null,
          moved(product, machine, version, rows), judged);
    }).optional();
  }

  /**
   * The rows without a step whose two versions the compare page does not call unchanged (their samples moved by at
   * least the minimum change, but detection found no step against the series' noise): inconclusive, as compare says,
   * with compare's p-value, not "unchanged" beside a ratio of ×1.5. They fail no check.
   */
  private List<Row> moved(String product, String machine, String version, List<Row> rows) {
    Map<String, ComparedMetric> compared = new HashMap<>();
    rows.stream().filter(r -> r.verdict() == Verdict.UNCHANGED && r.baselineVersion() != null)
        .map(Row::baselineVersion).distinct().forEach(base -> {
          try {
            compare.compare(product, machine, base, version)
                .forEach(c -> compared.put(base + '\0' + c.benchmark() + '\0' + c.metric(), c));
          } catch (NotFound e) {
            // the baseline version was deleted since: nothing to compare with, the row stays as it is
          }
        });
    return rows.stream().map(r -> {
      ComparedMetric c = r.verdict() != Verdict.UNCHANGED ? null
          : compared.get(r.baselineVersion() + '\0' + r.benchmark() + '\0' + r.metric());
      return c == null || c.verdict() == Verdict.UNCHANGED || c.verdict() == Verdict.INSUFFICIENT_DATA ? r
          : new Row(r.benchmark(), r.metric(), r.unit(), r.direction(), r.baselineVersion(), r.baselineValue(),
              r.value(), r.ratio(), c.pValue(), Verdict.INCONCLUSIVE);
    }).toList();
  }

  private static Row of(Regression g) {
    return new Row(g.benchmark(), g.metric(), g.unit(), g.direction(), g.baselineVersion(), g.baselineValue(),
        g.value(), g.ratio(), g.pValue(), Verdict.REGRESSION);
  }

  /**
   * A step this run raised that now sits at another version (bisection placed it between the versions it was found
   * between): the row compares this run's own value with the step's baseline, the one version it names.
   */
  private static Row since(Regression g, RunLevels.Level l) {
    Double ratio = l.value() == null || g.baselineValue() == 0 ? g.ratio() : l.value() / g.baselineValue();
    return new Row(g.benchmark(), g.metric(), g.unit(), g.direction(), g.baselineVersion(), g.baselineValue(),
        l.value() == null ? g.value() : l.value(), ratio, g.pValue(), Verdict.REGRESSION);
  }

  /** A row without a step: unchanged against its baseline, or nothing to compare with; null for a secondary metric. */
  private Row row(String benchmark, String metric, String unit, Direction direction, String baselineVersion,
      Double base, Double value, Verdict stored) {
    Double ratio = base == null || value == null || base == 0 ? null : value / base;
    Verdict verdict = stored != null ? stored : detection.isSecondary(metric) ? null
        : ratio == null ? Verdict.INSUFFICIENT_DATA : Verdict.UNCHANGED;
    return new Row(benchmark, metric, unit, direction, baselineVersion, base, value, ratio, null, verdict);
  }

  static final String BRANCH_RUN = """
      SELECT ru.id::text AS id, p.name AS product, ru.version, m.name AS machine, b.name AS branch,
             v.name AS start_point
      FROM branch_run ru JOIN branch b ON b.id = ru.branch_id JOIN product p ON p.id = b.product_id
      JOIN machine m ON m.id = ru.machine_id JOIN version v ON v.id = ru.start_version_id WHERE ru.id = ?""";

  static final String BRANCH_ROWS = """
      SELECT benchmark, metric, unit, direction, baseline_version, baseline_value, value, ratio, p_value, verdict
      FROM branch_result WHERE run_id = ?""";

  private Optional<Report> branchRun(UUID id) {
    return jdbc.sql(BRANCH_RUN).param(id).query((rs, i) -> new Report(rs.getString("id"), rs.getString("product"),
        rs.getString("version"), rs.getString("machine"), rs.getString("branch"), rs.getString("start_point"),
        branchRows(id))).optional();
  }

  /** The verdicts a branch run was judged with (they are kept with it: see the branches package). */
  public List<Row> branchRows(UUID id) {
    return sorted(jdbc.sql(BRANCH_ROWS).param(id).query((ResultSet x, int j) -> {
      String verdict = x.getString("verdict");
      Row plain = row(x.getString("benchmark"), x.getString("metric"), x.getString("unit"),
          Direction.of(x.getString("direction")), x.getString("baseline_version"), number(x, "baseline_value"),
          number(x, "value"), verdict == null ? null : Verdict.of(verdict));
      return new Row(plain.benchmark(), plain.metric(), plain.unit(), plain.direction(), plain.baselineVersion(),
          plain.baselineValue(), plain.value(), number(x, "ratio"), number(x, "p_value"), plain.verdict());
    }).list());
  }

  private static Double number(ResultSet rs, String column) throws SQLException {
    double v = rs.getDouble(column);
    return rs.wasNull() ? null : v;
  }
}
