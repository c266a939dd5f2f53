package org.perftrack.server.lab;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.perftrack.server.db.Rows;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The job queue. An agent claims the oldest queued job it can run ({@code FOR UPDATE SKIP LOCKED}, so
 * two agents or servers never take one job) with a lease that its heartbeats renew; a job whose lease
 * runs out (the agent died) goes back to the queue. Finishing, failing and releasing are fenced by the
 * lease, so a job is finished once, however many agents started it.
 */
@Repository
class Jobs {

  /** A job; {@code benchmarks} null means the agent's own selection. */
  record Job(long id, String product, String machine, List<String> versions, List<String> benchmarks, String reason,
      Long bisectionId, JobStatus status, int attempts, Long agentId, UUID lease, Instant leaseUntil, String progress,
      List<UUID> runIds, String error, String createdBy, Instant createdAt, Instant startedAt, Instant finishedAt) {}

  private static final String COLUMNS = """
      id, product, machine, versions, benchmarks, reason, bisection_id, status, attempts, agent_id, lease, lease_until,
      progress, run_ids, error, created_by, created_at, started_at, finished_at
      """;

  private final JdbcClient jdbc;

  Jobs(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static Job map(ResultSet rs, int row) throws SQLException {
    long bisection = rs.getLong("bisection_id");
    Long bisectionId = rs.wasNull() ? null : bisection;
    long agent = rs.getLong("agent_id");
    Long agentId = rs.wasNull() ? null : agent;
    return new Job(rs.getLong("id"), rs.getString("product"), rs.getString("machine"), Sql.strings(rs, "versions"),
        Sql.strings(rs, "benchmarks"), rs.getString("reason"), bisectionId,
        Rows.wire(JobStatus.class, rs.getString("status")),
        rs.getInt("attempts"), agentId, rs.getObject("lease", UUID.class), Sql.instant(rs, "lease_until"),
        rs.getString("progress"), Sql.uuids(rs, "run_ids"), rs.getString("error"), rs.getString("created_by"),
        Sql.instant(rs, "created_at"), Sql.instant(rs, "started_at"), Sql.instant(rs, "finished_at"));
  }

  static final String ENQUEUE = """
      INSERT INTO lab_job (product, machine, versions, benchmarks, reason, bisection_id, created_by)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      RETURNING\s""" + COLUMNS;

  Job enqueue(String product, String machine, List<String> versions, List<String> benchmarks, String reason,
      Long bisectionId, String createdBy) {
    return jdbc.sql(ENQUEUE).params(product, machine, versions.toArray(String[]::new),
        benchmarks == null ? null : benchmarks.toArray(String[]::new), reason, bisectionId, createdBy)
        .query(Jobs::map).single();
  }

  /** Bisection rounds first, then the oldest; only jobs whose versions the agent offers. */
  static final String CLAIM = """
      UPDATE lab_job j
         SET status = 'running', agent_id = :agent, lease = :lease, lease_until = now() + CAST(:leaseFor AS interval),
             attempts = attempts + 1, started_at = now(), progress = NULL
       WHERE j.id = (SELECT id FROM lab_job
                      WHERE status = 'queued' AND product = :product AND machine = :machine
                        AND versions <@ CAST(:offered AS text[])
                      ORDER BY reason = 'bisection' DESC, id
                      LIMIT 1
                      FOR UPDATE SKIP LOCKED)
      RETURNING\s""" + COLUMNS;

  Optional<Job> claim(Agents.Agent agent, Duration lease) {
    return jdbc.sql(CLAIM).param("agent", agent.id()).param("lease", UUID.randomUUID())
        .param("leaseFor", lease.toSeconds() + " seconds").param("product", agent.product())
        .param("machine", agent.machine()).param("offered", agent.targets().toArray(String[]::new))
        .query(Jobs::map).optional();
  }

  /** A heartbeat: the agent's running job keeps its lease and shows its progress. */
  void renew(long agentId, String progress, Duration lease) {
    jdbc.sql("""
        UPDATE lab_job SET lease_until = now() + CAST(? AS interval), progress = COALESCE(?, progress)
        WHERE agent_id = ? AND status = 'running'""").params(lease.toSeconds() + " seconds", progress, agentId).update();
  }

  static final String FINISH = """
      UPDATE lab_job SET status = 'done', finished_at = now(), run_ids = ?, lease = NULL, lease_until = NULL,
             progress = NULL, error = NULL
      WHERE id = ? AND status = 'running' AND lease = ?
      RETURNING\s""" + COLUMNS;

  /** Empty when the lease is no longer this agent's: someone else runs (or finished) the job. */
  Optional<Job> finish(long id, UUID lease, List<UUID> runIds) {
    return jdbc.sql(FINISH).params(runIds.toArray(UUID[]::new), id, lease).query(Jobs::map).optional();
  }

  static final String FAIL = """
      UPDATE lab_job SET status = CASE WHEN attempts >= ? THEN 'failed' ELSE 'queued' END,
             finished_at = CASE WHEN attempts >= ? THEN now() END,
             error = ?, lease = NULL, lease_until = NULL, agent_id = CASE WHEN attempts >= ? THEN agent_id END
      WHERE id = ? AND status = 'running' AND lease = ?
      RETURNING\s""" + COLUMNS;

  Optional<Job> fail(long id, UUID lease, String error, int maxAttempts) {
    return jdbc.sql(FAIL).params(maxAttempts, maxAttempts, error, maxAttempts, id, lease).query(Jobs::map).optional();
  }

  /** Ctrl-C on the agent: the job returns to the queue, and this attempt does not count. */
  boolean release(long id, UUID lease) {
    return jdbc.sql("""
        UPDATE lab_job SET status = 'queued', attempts = greatest(attempts - 1, 0), lease = NULL, lease_until = NULL,
               agent_id = NULL, progress = NULL
        WHERE id = ? AND status = 'running' AND lease = ?""").params(id, lease).update() == 1;
  }

  /** A restarted agent lost whatever it was running: back to the queue at once, not when the lease ends. */
  int releaseHeldBy(long agentId) {
    return jdbc.sql("""
        UPDATE lab_job SET status = 'queued', lease = NULL, lease_until = NULL, agent_id = NULL, progress = NULL,
               error = 'the agent restarted during the job'
        WHERE agent_id = ? AND status = 'running'""").param(agentId).update();
  }

  /** Jobs whose agent went away: queued again, or failed after too many attempts. */
  List<Job> expireLeases(int maxAttempts) {
    return jdbc.sql("""
        UPDATE lab_job SET status = CASE WHEN attempts >= ? THEN 'failed' ELSE 'queued' END,
               finished_at = CASE WHEN attempts >= ? THEN now() END,
               error = 'the agent stopped sending heartbeats during the job', lease = NULL, lease_until = NULL
        WHERE status = 'running' AND lease_until < now()
        RETURNING\s""" + COLUMNS).params(maxAttempts, maxAttempts).query(Jobs::map).list();
  }

  Optional<Job> find(long id) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM lab_job WHERE id = ?").param(id).query(Jobs::map).optional();
  }

  /** One page of the jobs, newest first. */
  List<Job> page(int page, int size) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM lab_job ORDER BY id DESC LIMIT ? OFFSET ?").params(size, (long) page * size)
        .query(Jobs::map).list();
  }

  long count() {
    return jdbc.sql("SELECT count(*) FROM lab_job").query(Long.class).single();
  }

  List<Job> recent(int limit) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM lab_job ORDER BY id DESC LIMIT ?").param(limit)
        .query(Jobs::map).list();
  }

  Optional<Job> runningOn(long agentId) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM lab_job WHERE agent_id = ? AND status = 'running' LIMIT 1")
        .param(agentId).query(Jobs::map).optional();
  }

  /** True when some job (of any state) already measures {@code version} because it was new. */
  boolean newVersionJobExists(String product, String machine, String version) {
    return jdbc.sql("""
        SELECT EXISTS (SELECT 1 FROM lab_job WHERE product = ? AND machine = ? AND reason = 'new-version'
                          AND ? = ANY (versions))""").params(product, machine, version).query(Boolean.class).single();
  }

  /** The stored runs among {@code ids} that are of this job's product, machine and versions. */
  static final String RUNS_OF_JOB = """
      SELECT r.id FROM run r
        JOIN product p ON p.id = r.product_id
        JOIN machine m ON m.id = r.machine_id
        JOIN version v ON v.id = r.version_id
       WHERE r.id = ANY (?) AND p.name = ? AND m.name = ? AND v.name = ANY (?)""";

  /**
   * True when every run the job reported is on the server (the agent uploads after finishing) and is a run of
   * the job's product, machine and versions; a run of anything else never counts.
   */
  boolean runsArrived(Job job) {
    return !job.runIds().isEmpty() && runsOf(job, job.runIds()).size() == job.runIds().size();
  }

  /** The index of the first run of {@code ids} that is stored but is not a run of the job; -1 when none is. */
  int firstForeignRun(Job job, List<UUID> ids) {
    List<UUID> stored = jdbc.sql("SELECT id FROM run WHERE id = ANY (?)").param(ids.toArray(UUID[]::new))
        .query(UUID.class).list();
    if (stored.isEmpty()) {
      return -1;
    }
    java.util.Set<UUID> ofJob = new java.util.HashSet<>(runsOf(job, stored));
    for (int i = 0; i < ids.size(); i++) {
      if (stored.contains(ids.get(i)) && !ofJob.contains(ids.get(i))) {
        return i;
      }
    }
    return -1;
  }

  private List<UUID> runsOf(Job job, List<UUID> ids) {
    return jdbc.sql(RUNS_OF_JOB).params(ids.toArray(UUID[]::new), job.product(), job.machine(),
        job.versions().toArray(String[]::new)).query(UUID.class).list();
  }
}
