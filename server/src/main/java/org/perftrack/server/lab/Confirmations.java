package org.perftrack.server.lab;

import com.fasterxml.jackson.annotation.JsonValue;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.perftrack.server.db.Rows;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The lab's confirmations of unsure claims: one per regression, never two open ones for a series. */
@Repository
class Confirmations {

  /** Where a confirmation stands: rounds under way, or what they showed. */
  enum Status {
    RUNNING, PLACED, WITHDRAWN, UNSURE, IMPOSSIBLE;

    @JsonValue
    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** One confirmation: {@code versions} the suspects and the version before them, in version order. */
  record Confirmation(long id, String product, String machine, long seriesId, long regressionId, String benchmark,
      String metric, List<String> versions, Status status, int rounds, Long jobId, String outcome,
      Instant createdAt, Instant finishedAt) {

    PlanEntry entry() {
      return new PlanEntry(benchmark, metric, versions);
    }

    /** "1.5.20-1..1.5.22-1" */
    String range() {
      return versions.get(0) + ".." + versions.get(versions.size() - 1);
    }
  }

  private static final String COLUMNS = """
      id, product, machine, series_id, regression_id, benchmark, metric, versions, status, rounds, job_id, outcome,
      created_at, finished_at
      """;

  private final JdbcClient jdbc;

  Confirmations(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static Confirmation map(ResultSet rs, int row) throws SQLException {
    long job = rs.getLong("job_id");
    Long jobId = rs.wasNull() ? null : job;
    return new Confirmation(rs.getLong("id"), rs.getString("product"), rs.getString("machine"), rs.getLong("series_id"),
        rs.getLong("regression_id"), rs.getString("benchmark"), rs.getString("metric"), Sql.strings(rs, "versions"),
        Rows.wire(Status.class, rs.getString("status")), rs.getInt("rounds"), jobId, rs.getString("outcome"),
        Sql.instant(rs, "created_at"), Sql.instant(rs, "finished_at"));
  }

  /** A new confirmation; none when the series already has an open one (or the regression had one). */
  static final String INSERT = """
      INSERT INTO confirmation (product, machine, series_id, regression_id, benchmark, metric, versions)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO NOTHING
      RETURNING\s""" + COLUMNS;

  java.util.Optional<Confirmation> create(String product, String machine, long seriesId, long regressionId,
      String benchmark, String metric, List<String> versions) {
    return jdbc.sql(INSERT).params(product, machine, seriesId, regressionId, benchmark, metric,
        versions.toArray(String[]::new)).query(Confirmations::map).optional();
  }

  /** The running ones, locked for this server's pass (another server skips them). */
  List<Confirmation> runningLocked() {
    return jdbc.sql("SELECT " + COLUMNS + " FROM confirmation WHERE status = 'running' ORDER BY id"
        + " FOR UPDATE SKIP LOCKED").query(Confirmations::map).list();
  }

  List<Confirmation> recent(int limit) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM confirmation ORDER BY id DESC LIMIT ?").param(limit)
        .query(Confirmations::map).list();
  }

  java.util.Optional<Confirmation> ofRegression(long regressionId) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM confirmation WHERE regression_id = ?").param(regressionId)
        .query(Confirmations::map).optional();
  }

  /** The round's job. */
  void measuring(List<Long> ids, long jobId) {
    jdbc.sql("UPDATE confirmation SET job_id = ? WHERE id = ANY (?)").params(jobId, ids.toArray(Long[]::new)).update();
  }

  /** A round's runs arrived: one more round, none under way. */
  void roundDone(long id) {
    jdbc.sql("UPDATE confirmation SET rounds = rounds + 1, last_job_id = job_id, job_id = NULL WHERE id = ?")
        .param(id).update();
  }

  /** What a confirm job's round showed for one series; {@code outcome} null until the round is judged. */
  record Outcome(String benchmark, String metric, Status status, String outcome) {}

  static final String OUTCOMES = """
      SELECT benchmark, metric, status,
             CASE WHEN job_id = :job THEN NULL WHEN status = 'running' THEN 'to be measured again' ELSE outcome END
        FROM confirmation WHERE last_job_id = :job OR job_id = :job
       ORDER BY id""";

  List<Outcome> ofJob(Jobs.Job job) {
    return jdbc.sql(OUTCOMES).param("job", job.id())
        .query((rs, n) -> new Outcome(rs.getString(1), rs.getString(2), Rows.wire(Status.class, rs.getString(3)),
            rs.getString(4))).list();
  }

  void finished(long id, Status status, String outcome) {
    jdbc.sql("UPDATE confirmation SET status = ?, outcome = ?, job_id = NULL, finished_at = now() WHERE id = ?")
        .params(status.wire(), outcome, id).update();
  }

  /** True while a round of this machine runs: one confirm job per machine and round. */
  boolean roundUnderWay(String product, String machine) {
    return jdbc.sql("""
        SELECT EXISTS (SELECT 1 FROM confirmation WHERE product = ? AND machine = ? AND status = 'running'
                          AND job_id IS NOT NULL)""").params(product, machine).query(Boolean.class).single();
  }

  /** True when a job of this machine other than confirm ones has waited in the queue for more than an hour. */
  boolean othersWaitedAnHour(String product, String machine) {
    return jdbc.sql("""
        SELECT EXISTS (SELECT 1 FROM lab_job WHERE product = ? AND machine = ? AND status = 'queued'
                          AND reason <> 'confirm' AND created_at < now() - interval '1 hour')""")
        .params(product, machine).query(Boolean.class).single();
  }
}
