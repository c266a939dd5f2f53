package org.perftrack.server.runs;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.perftrack.server.db.Json;
import org.perftrack.server.db.SqlArrays;
import org.perftrack.server.detection.DetectionProperties;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.stats.SampleStats;
import org.perftrack.wire.RunUpload;
import org.perftrack.server.security.Scope;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.core.Authentication;
import org.springframework.stereotype.Service;
import tools.jackson.core.type.TypeReference;

/** Reads runs back: one run as uploaded, and the latest runs for the pages. */
@Service
public class RunQueries {

  /**
   * A stored run: what was uploaded, plus when it arrived; {@code excluded} (null when it counts) says who took it
   * out of judgement, when and why; {@code deleted} that it is deleted (restorable until purged). A branch's build
   * has its {@code branch} and the {@code startPoint} it was judged against (both absent for a default-branch run).
   */
  public record StoredRunView(String id, String product, String version, RunUpload.MachineInfo machine, String suite,
      String batch, Instant startedAt, Instant finishedAt, Instant receivedAt, Map<String, String> attributes,
      List<RunUpload.BenchmarkFailure> failures, List<Result> results, Exclusion excluded, boolean deleted,
      @JsonInclude(JsonInclude.Include.NON_NULL) String branch,
      @JsonInclude(JsonInclude.Include.NON_NULL) String startPoint) {}

  /** Who excluded a run from judgement, when, and why. */
  public record Exclusion(Instant at, String by, String reason) {}

  /** One result of a stored run with its summary. */
  public record Result(String benchmark, String metric, String unit, Direction direction, double[] samples,
      int n, double min, double median, double mean, double max) {}

  /** A line of the latest-runs list. */
  /** A run in home's latest runs; {@code excluded} when triage set it aside (its results, counted, count nowhere). */
  public record RunLine(String id, String product, String version, String machine, String suite,
      Instant receivedAt, int results, int failures, boolean excluded) {}

  private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};
  private static final TypeReference<List<RunUpload.BenchmarkFailure>> FAILURES = new TypeReference<>() {};

  private final JdbcClient jdbc;
  private final DetectionProperties detection;

  RunQueries(JdbcClient jdbc, DetectionProperties detection) {
    this.jdbc = jdbc;
    this.detection = detection;
  }

  static final String RUN = """
      SELECT r.id, p.name AS product, v.name AS version, r.machine_snapshot::text AS machine, r.suite,
             r.batch, r.started_at, r.finished_at, r.received_at, r.attributes::text AS attributes,
             r.failures::text AS failures, r.excluded_at, r.excluded_by, r.excluded_reason,
             r.deletion_id IS NOT NULL AS deleted
      FROM run r JOIN product p ON p.id = r.product_id JOIN version v ON v.id = r.version_id
      WHERE r.id = ?""";

  static final String RESULTS = """
      SELECT s.benchmark, s.metric, s.unit, s.direction, x.samples, x.n, coalesce(x.min, x.mean) AS min,
             coalesce(x.median, x.mean) AS median, x.mean, coalesce(x.max, x.mean) AS max
      FROM (SELECT * FROM result WHERE run_id = ? UNION ALL SELECT * FROM result_set_aside WHERE run_id = ?) AS x
      JOIN series s ON s.id = x.series_id
      ORDER BY s.benchmark, s.metric""";

  static final String SESSION = """
      SELECT o.id FROM run r JOIN run o ON o.batch = r.batch AND o.product_id = r.product_id
        AND o.machine_id = r.machine_id
      WHERE r.id = ? AND r.batch IS NOT NULL
      ORDER BY o.id""";

  /**
   * The runs of this run's session (its {@code batch}, product and machine), itself included; just itself outside
   * a session. A session's runs are judged together, so what they found belongs to all of them.
   */
  public List<UUID> session(UUID id) {
    List<UUID> runs = jdbc.sql(SESSION).param(id).query(UUID.class).list();
    return runs.isEmpty() ? List.of(id) : runs;
  }

  /** A run of a session whose other runs the server still waits for: not judged yet. */
  public boolean waitsForItsSession(UUID id) {
    return jdbc.sql("SELECT EXISTS (SELECT 1 FROM session_pending WHERE run_id = ?)").param(id).query(Boolean.class)
        .single();
  }

  static final String GONE = """
      SELECT EXISTS (SELECT 1 FROM run r JOIN product p ON p.id = r.product_id JOIN version v ON v.id = r.version_id
                       JOIN machine m ON m.id = r.machine_id
                     WHERE r.id = ? AND (r.deletion_id IS NOT NULL OR p.deletion_id IS NOT NULL
                       OR v.deletion_id IS NOT NULL OR m.deletion_id IS NOT NULL))
          OR EXISTS (SELECT 1 FROM branch_run ru JOIN branch b ON b.id = ru.branch_id
                       JOIN product p ON p.id = b.product_id JOIN machine m ON m.id = ru.machine_id
                     WHERE ru.id = ? AND (b.deletion_id IS NOT NULL OR p.deletion_id IS NOT NULL
                       OR m.deletion_id IS NOT NULL))""";

  /**
   * A run as {@code who} may read it: a run whose run, product, version, machine or branch an admin deleted is an
   * admin's alone until it is restored or purged (others: none, as after the purge), and an anonymous reader does not
   * see its {@code batch} (with it, a run could be sent into the session).
   */
  public Optional<StoredRunView> find(UUID id, Authentication who) {
    if (!readable(id, who)) {
      return Optional.empty();
    }
    return find(id).map(r -> Scope.known(who) ? r : new StoredRunView(r.id(), r.product(), r.version(), r.machine(),
        r.suite(), null, r.startedAt(), r.finishedAt(), r.receivedAt(), r.attributes(), r.failures(), r.results(),
        r.excluded(), r.deleted(), r.branch(), r.startPoint()));
  }

  /** Whether {@code who} may read run {@code id} (see {@link #find(UUID, Authentication)}). */
  public boolean readable(UUID id, Authentication who) {
    return Scope.isAdmin(who) || !jdbc.sql(GONE).params(id, id).query(Boolean.class).single();
  }

  public Optional<StoredRunView> find(UUID id) {
    return jdbc.sql(RUN).param(id).query((ResultSet rs, int row) -> new StoredRunView(
            rs.getString("id"), rs.getString("product"), rs.getString("version"),
            Json.MAPPER.readValue(rs.getString("machine"), RunUpload.MachineInfo.class), rs.getString("suite"),
            rs.getString("batch"), instant(rs, "started_at"), instant(rs, "finished_at"), instant(rs, "received_at"),
            Json.MAPPER.readValue(rs.getString("attributes"), STRING_MAP),
            Json.MAPPER.readValue(rs.getString("failures"), FAILURES), results(id),
            rs.getTimestamp("excluded_at") == null ? null : new Exclusion(instant(rs, "excluded_at"),
                rs.getString("excluded_by"), rs.getString("excluded_reason")), rs.getBoolean("deleted"), null, null))
        .optional().or(() -> branchRun(id));
  }

  static final String BRANCH_RUN = """
      SELECT ru.id, p.name AS product, ru.version, m.name AS machine, ru.suite, ru.started_at, ru.finished_at,
             ru.received_at, ru.attributes::text AS attributes, ru.failures::text AS failures,
             b.deletion_id IS NOT NULL OR p.deletion_id IS NOT NULL AS deleted, b.name AS branch,
             v.name AS start_point
      FROM branch_run ru JOIN branch b ON b.id = ru.branch_id JOIN product p ON p.id = b.product_id
      JOIN machine m ON m.id = ru.machine_id JOIN version v ON v.id = ru.start_version_id
      WHERE ru.id = ?""";

  /** A branch build's results, as {@link #RESULTS} reads a run's (summaries kept only for summary-only results). */
  static final String BRANCH_RESULTS = """
      SELECT benchmark, metric, unit, direction, samples, n, mean AS min, coalesce(median, mean) AS median, mean,
             mean AS max
      FROM branch_result WHERE run_id = ?""";

  /** A branch's build, as the run page and API show a run (its verdicts are the branches package's). */
  private Optional<StoredRunView> branchRun(UUID id) {
    return jdbc.sql(BRANCH_RUN).param(id).query((ResultSet rs, int row) -> new StoredRunView(
            rs.getString("id"), rs.getString("product"), rs.getString("version"),
            RunUpload.MachineInfo.named(rs.getString("machine")), rs.getString("suite"), null,
            instant(rs, "started_at"), instant(rs, "finished_at"), instant(rs, "received_at"),
            Json.MAPPER.readValue(rs.getString("attributes"), STRING_MAP),
            Json.MAPPER.readValue(rs.getString("failures"), FAILURES), results(BRANCH_RESULTS, id), null,
            rs.getBoolean("deleted"), rs.getString("branch"), rs.getString("start_point")))
        .optional();
  }

  private List<Result> results(UUID id) {
    return results(RESULTS, id, id);
  }

  private List<Result> results(String sql, Object... params) {
    List<Result> results = new ArrayList<>();
    jdbc.sql(sql).params(params).query((ResultSet rs) -> {
      double[] samples = SqlArrays.doubles(rs.getArray("samples"));
      SampleStats s = samples.length > 0 ? SampleStats.of(samples) // raw samples: the summary is derived
          : new SampleStats(rs.getInt("n"), rs.getDouble("min"), rs.getDouble("median"), rs.getDouble("mean"),
              rs.getDouble("max"));
      results.add(new Result(rs.getString("benchmark"), rs.getString("metric"), rs.getString("unit"),
          Direction.of(rs.getString("direction")), samples, s.n(), s.min(), s.median(), s.mean(), s.max()));
    });
    // per benchmark, its primary metric (time-per-op) before the secondary ones that ride along (ctx-switches-per-op)
    results.sort(Comparator.comparing(Result::benchmark).thenComparing(r -> detection.isSecondary(r.metric()))
        .thenComparing(Result::metric));
    return results;
  }

  static final String LATEST = """
      SELECT r.id, p.name AS product, v.name AS version, m.name AS machine, r.suite, r.received_at,
             (SELECT count(*) FROM result x WHERE x.run_id = r.id)
               + (SELECT count(*) FROM result_set_aside x WHERE x.run_id = r.id) AS results,
             jsonb_array_length(r.failures) AS failures, r.excluded_at IS NOT NULL AS excluded
      FROM run r JOIN product p ON p.id = r.product_id JOIN version v ON v.id = r.version_id
           JOIN machine m ON m.id = r.machine_id
      WHERE r.deletion_id IS NULL AND p.deletion_id IS NULL AND m.deletion_id IS NULL
      ORDER BY r.received_at DESC, r.started_at DESC NULLS LAST, v.sort_key DESC, r.id
      LIMIT ?""";

  public List<RunLine> latest(int limit) {
    return jdbc.sql(LATEST).param(limit).query(RunLine.class).list();
  }

  private static Instant instant(ResultSet rs, String column) throws java.sql.SQLException {
    var ts = rs.getTimestamp(column);
    return ts == null ? null : ts.toInstant();
  }
}
