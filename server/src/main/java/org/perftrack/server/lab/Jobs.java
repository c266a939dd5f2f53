package org.perftrack.server.lab;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.perftrack.server.db.Json;
import org.perftrack.server.db.Rows;
import org.perftrack.wire.VersionKey;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;

/**
 * The job queue. An agent claims the oldest queued job it can run ({@code FOR UPDATE SKIP LOCKED}, so
 * two agents or servers never take one job) with a lease that its heartbeats renew; a job whose lease
 * runs out (the agent died) goes back to the queue. Finishing, failing and releasing are fenced by the
 * lease, so a job is finished once, however many agents started it.
 */
@Repository
class Jobs {

  /**
   * A job; {@code benchmarks} null means the agent's own selection. {@code plan} (confirm and profile jobs) says which
   * benchmark runs at which versions; {@code versions} and {@code benchmarks} are then the plan's union.
   */
  record Job(long id, String product, String machine, List<String> versions, List<String> benchmarks, String reason,
      Long bisectionId, JobStatus status, int attempts, Long agentId, UUID lease, Instant leaseUntil, String progress,
      List<UUID> runIds, String error, String createdBy, Instant createdAt, Instant startedAt, Instant finishedAt,
      List<PlanEntry> plan) {

    /** What the job is for, as the lab lists it: "confirm write-64b between 1.5.20-1 and 1.5.22-1". */
    @JsonProperty("about")
    public String about() {
      if (plan == null || plan.isEmpty()) {
        return reason;
      }
      return reason + " " + plan.stream().map(e -> {
        List<String> sorted = e.versions().stream().sorted(Comparator.comparing(VersionKey::of)).toList();
        return e.benchmark() + (sorted.size() == 1 ? " at " + sorted.get(0)
            : " between " + sorted.get(0) + " and " + sorted.get(sorted.size() - 1));
      }).distinct().collect(Collectors.joining(", "));
    }
  }

  private static final String COLUMNS = """
      id, product, machine, versions, benchmarks, reason, bisection_id, status, attempts, agent_id, lease, lease_until,
      progress, run_ids, error, created_by, created_at, started_at, finished_at, plan
      """;

  private static final TypeReference<List<PlanEntry>> PLAN = new TypeReference<>() {};

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
        Sql.instant(rs, "created_at"), Sql.instant(rs, "started_at"), Sql.instant(rs, "finished_at"),
        plan(rs.getString("plan")));
  }

  private static List<PlanEntry> plan(String json) {
    return json == null ? null : Json.MAPPER.readValue(json, PLAN);
  }

  static final String ENQUEUE = """
      INSERT INTO lab_job (product, machine, versions, benchmarks, reason, bisection_id, created_by, plan)
      VALUES (?, ?, ?, ?, ?, ?, ?, CAST(? AS jsonb))
      RETURNING\s""" + COLUMNS;

  Job enqueue(String product, String machine, List<String> versions, List<String> benchmarks, String reason,
      Long bisectionId, String createdBy) {
    return jdbc.sql(ENQUEUE).params(product, machine, versions.toArray(String[]::new),
        benchmarks == null ? null : benchmarks.toArray(String[]::new), reason, bisectionId, createdBy, null)
        .query(Jobs::map).single();
  }

  /** How many jobs {@code createdBy} (a schedule) has queued so far. */
  long queuedBy(String createdBy) {
    return jdbc.sql("SELECT count(*) FROM lab_job WHERE created_by = ?").param(createdBy).query(Long.class).single();
  }

  /** Whether a job that {@code createdBy} (a schedule) queued for the machine still waits for an agent to take it. */
  boolean waiting(String createdBy, String product, String machine) {
    return jdbc.sql("""
        SELECT EXISTS (SELECT 1 FROM lab_job WHERE status = 'queued' AND product = ? AND machine = ? AND created_by = ?)
        """).params(product, machine, createdBy).query(Boolean.class).single();
  }

  /** A planned job (confirm, profile): its flat versions (in version order) and benchmarks are the plan's union. */
  Job enqueue(String product, String machine, String reason, List<PlanEntry> plan, String createdBy) {
    List<String> versions = plan.stream().flatMap(e -> e.versions().stream()).distinct()
        .sorted(Comparator.comparing(VersionKey::of)).toList();
    List<String> benchmarks = plan.stream().map(PlanEntry::benchmark).distinct().toList();
    return jdbc.sql(ENQUEUE).params(product, machine, versions.toArray(String[]::new),
        benchmarks.toArray(String[]::new), reason, null, createdBy, Json.MAPPER.writeValueAsString(plan))
        .query(Jobs::map).single();
  }

  /**
   * The queue's one fairness rule, for every kind: the agent gets the oldest job of the reason that was started least
   * recently on its machine (a reason never started there first), among the jobs of the kinds it takes whose versions
   * it offers. So bisection rounds, confirm and profile jobs, schedules and manual runs take turns: none waits
   * behind more than one job of each other reason.
   */
  static final String CLAIM = """
      UPDATE lab_job j
         SET status = 'running', agent_id = :agent, lease = :lease, lease_until = now() + CAST(:leaseFor AS interval),
             attempts = attempts + 1, started_at = now(), progress = NULL
       WHERE j.id = (SELECT q.id FROM lab_job q
                       LEFT JOIN (SELECT reason, max(started_at) AS served FROM lab_job
                                   WHERE product = :product AND machine = :machine AND started_at IS NOT NULL
                                   GROUP BY reason) s ON s.reason = q.reason
                      WHERE q.status = 'queued' AND q.product = :product AND q.machine = :machine
                        AND q.versions <@ CAST(:offered AS text[]) AND q.kind = ANY (CAST(:kinds AS text[]))
                      ORDER BY s.served NULLS FIRST, q.id
                      LIMIT 1
                      FOR UPDATE OF q SKIP LOCKED)
      RETURNING\s""" + COLUMNS;

  Optional<Job> claim(Agents.Agent agent, Duration lease) {
    return jdbc.sql(CLAIM).param("agent", agent.id()).param("lease", UUID.randomUUID())
        .param("leaseFor", lease.toSeconds() + " seconds").param("product", agent.product())
        .param("machine", agent.machine()).param("offered", agent.targets().toArray(String[]::new))
        .param("kinds", agent.kinds().stream().map(JobKind::wire).toArray(String[]::new))
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
   * the job's product, machine and versions, and judged (none waits for the rest of its session); a run of anything
   * else never counts.
   */
  boolean runsArrived(Job job) {
    return !job.runIds().isEmpty() && runsOf(job, job.runIds()).size() == job.runIds().size()
        && jdbc.sql("SELECT count(*) FROM session_pending WHERE run_id = ANY (?)")
            .param(job.runIds().toArray(UUID[]::new)).query(Long.class).single() == 0;
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

  /** The index of the first of {@code ids} that is not a profile this job sent; -1 when all are. */
  int firstForeignProfile(long jobId, List<Long> ids) {
    List<Long> ofJob = jdbc.sql("SELECT id FROM profile WHERE id = ANY (?) AND job_id = ?")
        .params(ids.toArray(Long[]::new), jobId).query(Long.class).list();
    for (int i = 0; i < ids.size(); i++) {
      if (!ofJob.contains(ids.get(i))) {
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
