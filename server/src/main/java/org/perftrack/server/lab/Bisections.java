package org.perftrack.server.lab;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.perftrack.server.db.Rows;
import org.perftrack.server.detection.Regressions;
import org.perftrack.wire.VersionKey;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Bisections in PostgreSQL; the public face of the lab for the regression pages and API: what became
 * of a regression's bisection ({@link #forRegression}).
 */
@Repository
public class Bisections {

  /** What a regression shows of its bisection (the API's {@code bisection} object). */
  public record State(BisectionStatus status, String lastGood, String firstBad, int rounds, String sentence) {}

  public record Bisection(long id, String product, String machine, String baseline, String version, List<String> benchmarks,
      BisectionStatus status, String lastGood, String firstBad, int rounds, boolean remeasured, Long jobId, String reason,
      long regressionId, Instant createdAt, Instant finishedAt) {

    public String sentence() {
      return switch (status) {
        case DONE -> "first bad version " + firstBad + " (last good " + lastGood + "), " + rounds
            + (rounds == 1 ? " round" : " rounds");
        case IMPOSSIBLE -> "cannot bisect: " + reason;
        case RUNNING -> "bisecting between " + lastGood + " and " + firstBad + " (" + rounds
            + (rounds == 1 ? " round" : " rounds") + " so far)";
        case PENDING -> "bisection waiting for an agent";
      };
    }

    public String link() {
      return "/regressions/" + regressionId;
    }

    State state() {
      return new State(status, lastGood, firstBad, rounds, sentence());
    }
  }

  private static final String COLUMNS = """
      b.id, b.product, b.machine, b.baseline, b.version, b.benchmarks, b.status, b.last_good, b.first_bad, b.rounds,
      b.remeasured, b.job_id, b.reason, b.created_at, b.finished_at,
      (SELECT min(regression_id) FROM bisection_regression br WHERE br.bisection_id = b.id) AS regression_id
      """;

  private final JdbcClient jdbc;
  private final Regressions regressions;
  private final Agents agents;

  Bisections(JdbcClient jdbc, Regressions regressions, Agents agents) {
    this.jdbc = jdbc;
    this.regressions = regressions;
    this.agents = agents;
  }

  /**
   * Why no lab agent could bisect this regression now ("no agent runs cygwin on xp-lab-01", "the agent of xp-lab-01
   * offers no version between 1.5.19-4 and 1.5.24-2"): the page offers "Bisect" only where one could. Empty when one
   * could, or when a bisection serves the regression already.
   */
  public Optional<String> cannotBisect(long regressionId) {
    if (find(regressionId).isPresent()) {
      return Optional.empty();
    }
    return regression(regressionId).flatMap(r -> cannot(agents.find(r.product(), r.machine()), r));
  }

  /** Why {@code agent} cannot narrow this step: none, it does not offer both ends, or nothing in between. */
  static Optional<String> cannot(Optional<Agents.Agent> agent, Unbisected step) {
    if (agent.isEmpty()) {
      return Optional.of("no agent runs " + step.product() + " on " + step.machine());
    }
    List<String> targets = agent.get().targets();
    if (!targets.contains(step.baseline()) || !targets.contains(step.version())) {
      return Optional.of("the agent of " + step.machine() + " does not offer both " + step.baseline() + " and "
          + step.version());
    }
    return BisectionJudge.between(targets, step.baseline(), step.version()).isEmpty()
        ? Optional.of("the agent of " + step.machine() + " offers no version between " + step.baseline() + " and "
            + step.version()) : Optional.empty();
  }

  static Bisection map(ResultSet rs, int row) throws SQLException {
    long job = rs.getLong("job_id");
    Long jobId = rs.wasNull() ? null : job;
    return new Bisection(rs.getLong("id"), rs.getString("product"), rs.getString("machine"), rs.getString("baseline"),
        rs.getString("version"), Sql.strings(rs, "benchmarks"), Rows.wire(BisectionStatus.class, rs.getString("status")),
        rs.getString("last_good"),
        rs.getString("first_bad"), rs.getInt("rounds"), rs.getBoolean("remeasured"), jobId, rs.getString("reason"),
        rs.getLong("regression_id"), Sql.instant(rs, "created_at"), Sql.instant(rs, "finished_at"));
  }

  /** The bisection that serves this regression, if one was started. */
  public Optional<State> forRegression(long regressionId) {
    return find(regressionId).map(Bisection::state);
  }

  Optional<Bisection> find(long regressionId) {
    return jdbc.sql("SELECT " + COLUMNS + """
         FROM bisection b JOIN bisection_regression r ON r.bisection_id = b.id WHERE r.regression_id = ?""")
        .param(regressionId).query(Bisections::map).optional();
  }

  Optional<Bisection> byId(long id) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM bisection b WHERE b.id = ?").param(id).query(Bisections::map).optional();
  }

  /** Pending and running ones, locked for this server's pass (another server skips them). */
  List<Bisection> activeLocked() {
    return jdbc.sql("SELECT " + COLUMNS + """
         FROM bisection b WHERE b.status IN ('pending', 'running') ORDER BY b.id FOR UPDATE SKIP LOCKED""")
        .query(Bisections::map).list();
  }

  List<Bisection> recent(int limit) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM bisection b ORDER BY b.id DESC LIMIT ?").param(limit)
        .query(Bisections::map).list();
  }

  static final String INSERT = """
      INSERT INTO bisection (product, machine, baseline, version, benchmarks, last_good, first_bad, requested_by)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      RETURNING id""";

  /** A new bisection for these regressions; those that already have one keep theirs. */
  long create(String product, String machine, String baseline, String version, List<String> benchmarks,
      List<Long> regressionIds, String requestedBy) {
    long id = jdbc.sql(INSERT).params(product, machine, baseline, version, benchmarks.toArray(String[]::new),
        baseline, version, requestedBy).query(Long.class).single();
    link(id, regressionIds);
    return id;
  }

  /** A bisection of this machine whose range overlaps {@code (baseline, version)}, newest first. */
  Optional<Bisection> overlapping(String product, String machine, String baseline, String version) {
    String low = VersionKey.of(baseline);
    String high = VersionKey.of(version);
    return jdbc.sql("SELECT " + COLUMNS + " FROM bisection b WHERE b.product = ? AND b.machine = ? ORDER BY b.id DESC")
        .params(product, machine).query(Bisections::map).list().stream()
        .filter(b -> VersionKey.of(b.baseline()).compareTo(high) < 0 && low.compareTo(VersionKey.of(b.version())) < 0)
        .findFirst();
  }

  void link(long bisectionId, List<Long> regressionIds) {
    for (long regression : regressionIds) {
      jdbc.sql("INSERT INTO bisection_regression (regression_id, bisection_id) VALUES (?, ?) ON CONFLICT DO NOTHING")
          .params(regression, bisectionId).update();
    }
  }

  void running(long id, long jobId, boolean remeasured) {
    jdbc.sql("UPDATE bisection SET status = 'running', job_id = ?, remeasured = ? WHERE id = ?")
        .params(jobId, remeasured, id).update();
  }

  /** One decided round: the range narrows to [lastGood, firstBad]. */
  void narrowed(long id, String lastGood, String firstBad) {
    jdbc.sql("""
        UPDATE bisection SET last_good = ?, first_bad = ?, rounds = rounds + 1, remeasured = false, job_id = NULL
        WHERE id = ?""").params(lastGood, firstBad, id).update();
  }

  void finished(long id, BisectionStatus status, String reason) {
    jdbc.sql("UPDATE bisection SET status = ?, reason = ?, finished_at = now(), job_id = NULL WHERE id = ?")
        .params(status.wire(), reason, id).update();
  }

  /** The samples of the affected series in one round's runs: benchmark/metric, version, samples. */
  record RoundSample(long seriesId, String version, double[] samples) {}

  List<RoundSample> roundSamples(long bisectionId, List<java.util.UUID> runIds) {
    return regressions.bisectedSamples(bisectionId, runIds).stream()
        .map(r -> new RoundSample(r.seriesId(), r.version(), r.samples())).toList();
  }


  /** An open regression that no bisection serves yet, with what grouping it needs. */
  record Unbisected(long id, String product, String machine, String benchmark, String baseline, String version) {}

  /** Open regressions on machines with an agent that no bisection serves; with an id: that one's siblings. */
  List<Unbisected> unbisected(Long regressionId) {
    return regressions.unbisected(regressionId).stream().map(Bisections::unbisected).toList();
  }

  /** A regression by id, for the "Bisect" button (also when its machine has no agent). */
  Optional<Unbisected> regression(long id) {
    return regressions.located(id).map(Bisections::unbisected);
  }

  private static Unbisected unbisected(Regressions.Located r) {
    return new Unbisected(r.id(), r.product(), r.machine(), r.benchmark(), r.baseline(), r.version());
  }
}
