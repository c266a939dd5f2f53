package org.perftrack.server.branches;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.perftrack.server.db.Json;
import org.perftrack.server.detection.BranchJudge;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.WaitingChange;
import org.perftrack.wire.RunUpload;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The SQL of the branch tables (this package owns them): branches, their runs and their results' verdicts. */
@Repository
class BranchStore {

  private final JdbcClient jdbc;
  private final org.springframework.jdbc.core.JdbcTemplate batch;

  BranchStore(JdbcClient jdbc, org.springframework.jdbc.core.JdbcTemplate batch) {
    this.jdbc = jdbc;
    this.batch = batch;
  }

  /** A default-branch version: what a branch run starts from. */
  record StartPoint(long id, String name, String sortKey) {}

  static final String VERSION = """
      SELECT id, name, sort_key FROM version WHERE product_id = ? AND name = ? AND deletion_id IS NULL""";

  Optional<StartPoint> version(long productId, String name) {
    return jdbc.sql(VERSION).params(productId, name).query(StartPoint.class).optional();
  }

  /**
   * Newest version first, each probed for a run on the machine that counts (not excluded, not deleted): stops at the
   * first (the version index, backwards).
   */
  static final String NEWEST_ON_MACHINE = """
      SELECT v.id, v.name, v.sort_key FROM version v
      WHERE v.product_id = ? AND v.deletion_id IS NULL
        AND EXISTS (SELECT 1 FROM run r WHERE r.version_id = v.id AND r.machine_id = ?
                      AND r.excluded_at IS NULL AND r.deletion_id IS NULL)
      ORDER BY v.sort_key DESC LIMIT 1""";

  Optional<StartPoint> newestOnMachine(long productId, long machineId) {
    return jdbc.sql(NEWEST_ON_MACHINE).params(productId, machineId).query(StartPoint.class).optional();
  }

  /**
   * The branch's row, made or touched. It waits for a deletion of its product being written (it takes the
   * product's row as a new branch's reference to it does), so that the upload sees that deletion once it committed.
   */
  static final String UPSERT_BRANCH = """
      WITH p AS (SELECT id FROM product WHERE id = ? FOR KEY SHARE)
      INSERT INTO branch (product_id, name, token_id) SELECT id, ?, ? FROM p
      ON CONFLICT (product_id, name) WHERE deletion_id IS NULL DO UPDATE SET last_run_at = now()
      RETURNING id""";

  long branchId(long productId, String name, Long tokenId) {
    return jdbc.sql(UPSERT_BRANCH).params(productId, name, tokenId).query(Long.class).single();
  }

  static final String EXISTS = """
      SELECT EXISTS (SELECT 1 FROM branch WHERE product_id = ? AND name = ? AND deletion_id IS NULL)""";
  static final String OF_PRODUCT = "SELECT count(*) FROM branch WHERE product_id = ? AND deletion_id IS NULL";
  static final String OF_TOKEN = "SELECT count(*) FROM branch WHERE token_id = ? AND deletion_id IS NULL";

  boolean exists(long productId, String name) {
    return jdbc.sql(EXISTS).params(productId, name).query(Boolean.class).single();
  }

  /** The branches a product has, and those the runs of {@code tokenId} started (0 without a token). */
  long[] counts(long productId, Long tokenId) {
    return new long[] {jdbc.sql(OF_PRODUCT).param(productId).query(Long.class).single(),
        tokenId == null ? 0 : jdbc.sql(OF_TOKEN).param(tokenId).query(Long.class).single()};
  }

  static final String INSERT_RUN = """
      INSERT INTO branch_run (id, branch_id, version, machine_id, start_version_id, suite, started_at, finished_at,
                              attributes, failures, content_hash)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?)
      ON CONFLICT (id) DO NOTHING""";

  /** False when a run with this id is stored already. */
  boolean insertRun(UUID id, long branchId, long machineId, StartPoint start, RunUpload run, String hash) {
    return jdbc.sql(INSERT_RUN).params(id, branchId, run.version(), machineId, start.id(),
        run.suite() == null ? "default" : run.suite(), timestamp(run.startedAt()), timestamp(run.finishedAt()),
        Json.MAPPER.writeValueAsString(run.attributes() == null ? Map.of() : run.attributes()),
        Json.MAPPER.writeValueAsString(run.failures() == null ? List.of() : run.failures()), hash).update() == 1;
  }

  static final String HASH = "SELECT content_hash FROM branch_run WHERE id = ?";

  Optional<String> contentHash(UUID id) {
    return jdbc.sql(HASH).param(id).query(String.class).optional();
  }

  static final String DEFAULT_RUN = "SELECT EXISTS (SELECT 1 FROM run WHERE id = ?)";

  boolean onDefaultBranch(UUID id) {
    return jdbc.sql(DEFAULT_RUN).param(id).query(Boolean.class).single();
  }

  static final String INSERT_RESULT = """
      INSERT INTO branch_result (run_id, series_id, benchmark, metric, unit, direction, samples, n, mean, median,
                                 stddev, verdict, baseline_version, baseline_value, value, ratio, p_value)
      VALUES (?, ?, ?, ?, ?, ?, ?::float8[], ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";

  /** Every result of a run with its verdict, in one batch. */
  void insertResults(UUID runId, List<Branches.Result> results, List<BranchJudge.Judged> verdicts) {
    List<Object[]> rows = new java.util.ArrayList<>(results.size());
    for (int i = 0; i < results.size(); i++) {
      RunUpload.ResultUpload u = results.get(i).result();
      BranchJudge.Judged judged = verdicts.get(i);
      List<Double> samples = u.samples() == null ? List.of() : u.samples();
      rows.add(new Object[] {runId, results.get(i).seriesId(), u.benchmark(), u.metric(), u.unit(), u.direction(),
          samples.toArray(Double[]::new), u.samples() == null ? u.n() : samples.size(), u.mean(), u.median(),
          u.stddev(), judged.verdict() == null ? null : judged.verdict().wire(), judged.baselineVersion(),
          judged.baselineValue(), judged.value(), judged.ratio(), judged.pValue()});
    }
    batch.batchUpdate(INSERT_RESULT, rows);
  }

  static final String REGRESSIONS_OF_RUN = """
      SELECT br.id, p.name AS product, m.name AS machine, br.benchmark, br.metric, br.unit, br.direction,
             br.baseline_version, ru.version, br.baseline_value, br.value, br.ratio, br.p_value, ru.received_at
      FROM branch_result br JOIN branch_run ru ON ru.id = br.run_id JOIN branch b ON b.id = ru.branch_id
      JOIN product p ON p.id = b.product_id JOIN machine m ON m.id = ru.machine_id
      WHERE br.run_id = ? AND br.verdict = 'regression'
      ORDER BY br.benchmark, br.metric""";

  /** The regressions a branch run showed against its start point, as the one regression record. */
  List<Regression> regressions(UUID runId) {
    return jdbc.sql(REGRESSIONS_OF_RUN).param(runId).query((rs, i) -> {
      Instant at = rs.getTimestamp("received_at").toInstant();
      return new Regression(rs.getLong("id"), rs.getString("product"), rs.getString("machine"),
          rs.getString("benchmark"), rs.getString("metric"), rs.getString("unit"), Direction.of(rs.getString("direction")),
          Regression.Kind.REGRESSION, rs.getString("baseline_version"), rs.getString("version"),
          rs.getDouble("baseline_value"), rs.getDouble("value"), rs.getDouble("ratio"), rs.getDouble("p_value"),
          Regression.Status.OPEN, at, at, null, null, null, List.of(), List.of(), null, null, true);
    }).list();
  }

  static final String INCONCLUSIVE_OF_RUN = """
      SELECT p.name AS product, m.name AS machine, br.benchmark, br.metric, br.unit, br.baseline_version, ru.version,
             br.baseline_value, br.value, br.ratio, br.p_value
      FROM branch_result br JOIN branch_run ru ON ru.id = br.run_id JOIN branch b ON b.id = ru.branch_id
      JOIN product p ON p.id = b.product_id JOIN machine m ON m.id = ru.machine_id
      WHERE br.run_id = ? AND br.verdict = 'inconclusive' AND br.ratio IS NOT NULL AND br.p_value IS NOT NULL
      ORDER BY br.benchmark, br.metric""";

  /** What a branch run's answer says of each inconclusive change. */
  static final String INCONCLUSIVE_NOTE = "inconclusive: the default branch would report it once one more build "
      + "shows it; a branch build is judged once, so it does not fail the check";

  /** The changes of a branch run that the default branch would report once one more build shows them. */
  List<WaitingChange> inconclusive(UUID runId) {
    return jdbc.sql(INCONCLUSIVE_OF_RUN).param(runId).query((rs, i) -> new WaitingChange(rs.getString("product"),
        rs.getString("machine"), rs.getString("benchmark"), rs.getString("metric"), rs.getString("unit"),
        rs.getString("baseline_version"), rs.getString("version"), rs.getDouble("baseline_value"),
        rs.getDouble("value"), rs.getDouble("ratio"), rs.getDouble("p_value"), INCONCLUSIVE_NOTE)).list();
  }

  static final String START_POINT_OF_RUN = """
      SELECT v.name FROM branch_run ru JOIN version v ON v.id = ru.start_version_id WHERE ru.id = ?""";

  String startPointOf(UUID runId) {
    return jdbc.sql(START_POINT_OF_RUN).param(runId).query(String.class).single();
  }

  /** A deleted branch is left to the purge of its deletion (restorable until then). */
  static final String PRUNE = """
      DELETE FROM branch b USING product p WHERE p.id = b.product_id AND b.last_run_at < ? AND b.deletion_id IS NULL
      RETURNING 'branch ' || b.name || ' of ' || p.name""";

  /** What was pruned: "branch … of …" each. */
  List<String> prune(Instant before) {
    return jdbc.sql(PRUNE).param(Timestamp.from(before)).query(String.class).list();
  }

  /** A branch as lists show it: its runs, and how many regressions its newest run showed. */
  record Listed(long id, String name, Instant createdAt, Instant lastRunAt, long runs, long latestRegressions) {}

  static final String LISTED = """
      SELECT b.id, b.name, b.created_at, b.last_run_at,
             (SELECT count(*) FROM branch_run r WHERE r.branch_id = b.id) AS runs,
             (SELECT count(*) FROM branch_result x
              WHERE x.verdict = 'regression' AND x.run_id = (SELECT l.id FROM branch_run l WHERE l.branch_id = b.id
                                                            ORDER BY l.received_at DESC, l.id LIMIT 1))
               AS latest_regressions
      FROM branch b""";

  /**
   * A page of a product's branches, the most recently built first: {@code limit} of them after branch {@code after}
   * (null: from the first) in that order.
   */
  static final String PAGE = LISTED + """

      LEFT JOIN branch a ON a.product_id = b.product_id AND a.deletion_id IS NULL AND a.name = ?
      WHERE b.product_id = ? AND b.deletion_id IS NULL
        AND (CAST(? AS text) IS NULL OR b.last_run_at < a.last_run_at
             OR b.last_run_at = a.last_run_at AND b.name > a.name)
      ORDER BY b.last_run_at DESC, b.name
      LIMIT ?""";

  List<Listed> page(long productId, String after, int limit) {
    return jdbc.sql(PAGE).params(after, productId, after, limit).query(Listed.class).list();
  }

  static final String FIND = LISTED + "\nWHERE b.product_id = ? AND b.deletion_id IS NULL AND b.name = ?";

  Optional<Listed> find(long productId, String name) {
    return jdbc.sql(FIND).params(productId, name).query(Listed.class).optional();
  }

  static final String PRODUCT = "SELECT id FROM product WHERE name = ? AND deletion_id IS NULL";

  Optional<Long> productId(String name) {
    return jdbc.sql(PRODUCT).param(name).query(Long.class).optional();
  }

  /** One build of a branch: its run, and the start point it was judged against. */
  record Build(UUID id, String version, String machine, String startPoint, Instant receivedAt) {}

  static final String BUILDS = """
      SELECT r.id, r.version, m.name AS machine, v.name AS start_point, r.received_at
      FROM branch_run r JOIN machine m ON m.id = r.machine_id JOIN version v ON v.id = r.start_version_id
      WHERE r.branch_id = ? ORDER BY r.received_at DESC, r.id LIMIT ?""";

  List<Build> builds(long branchId, int limit) {
    return jdbc.sql(BUILDS).params(branchId, limit).query(Build.class).list();
  }

  private static Timestamp timestamp(Instant instant) {
    return instant == null ? null : Timestamp.from(instant);
  }
}
