package org.perftrack.server.lab;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The agents of the lab: one row per product and machine, kept current by registrations and heartbeats, and
 * bound to the API token that registered it.
 */
@Repository
class Agents {

  /** An agent as the lab page shows it. */
  record Agent(long id, String product, String machine, String agentVersion, int heartbeatSeconds,
      List<String> targets, Instant registeredAt, Instant lastSeenAt, String progress, int consecutiveFailures,
      Instant lastRunAt, Instant lastFailureAt, String lastFailure, boolean silentMailed, boolean failingMailed,
      List<JobKind> kinds) {

    boolean online(Instant now) {
      return lastSeenAt.plusSeconds(3L * heartbeatSeconds + 5).isAfter(now);
    }
  }

  private static final String COLUMNS = """
      id, product, machine, agent_version, heartbeat_seconds, targets, registered_at, last_seen_at, progress,
      consecutive_failures, last_run_at, last_failure_at, last_failure, silent_mailed, failing_mailed, kinds
      """;

  private final JdbcClient jdbc;

  static Agent map(ResultSet rs, int row) throws SQLException {
    return new Agent(rs.getLong("id"), rs.getString("product"), rs.getString("machine"), rs.getString("agent_version"),
        rs.getInt("heartbeat_seconds"), Sql.strings(rs, "targets"), Sql.instant(rs, "registered_at"),
        Sql.instant(rs, "last_seen_at"), rs.getString("progress"), rs.getInt("consecutive_failures"),
        Sql.instant(rs, "last_run_at"), Sql.instant(rs, "last_failure_at"), rs.getString("last_failure"),
        rs.getBoolean("silent_mailed"), rs.getBoolean("failing_mailed"), kinds(Sql.strings(rs, "kinds")));
  }

  /** The kinds an agent takes; one that named none (older than kinds) takes the timing jobs it knew. */
  private static List<JobKind> kinds(List<String> named) {
    return named == null ? JobKind.OLDER_AGENT : named.stream().map(k -> JobKind.parse(k).orElseThrow()).toList();
  }

  Agents(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /**
   * A registration updates the agent of this product and machine only when the same token registered it (or
   * none did, or that token was revoked since): another token's registration does not touch it.
   */
  static final String REGISTER = """
      INSERT INTO lab_agent (product, machine, agent_version, heartbeat_seconds, targets, token_id, kinds)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (product, machine) WHERE deletion_id IS NULL DO UPDATE
         SET agent_version = excluded.agent_version, heartbeat_seconds = excluded.heartbeat_seconds,
             targets = excluded.targets, registered_at = now(), last_seen_at = now(), progress = NULL,
             token_id = excluded.token_id, kinds = excluded.kinds
       WHERE lab_agent.token_id IS NULL OR lab_agent.token_id = excluded.token_id
          OR NOT EXISTS (SELECT 1 FROM api_token t WHERE t.id = lab_agent.token_id AND t.revoked_at IS NULL)
      RETURNING\s""" + COLUMNS;

  /**
   * Empty when another (valid) token registered an agent of this product and machine. {@code kinds} null: the agent
   * named none.
   */
  Optional<Agent> register(String product, String machine, String agentVersion, int heartbeatSeconds,
      List<String> targets, List<JobKind> kinds, long tokenId) {
    return jdbc.sql(REGISTER).params(product, machine, agentVersion, heartbeatSeconds, targets.toArray(String[]::new),
        tokenId, kinds == null ? null : kinds.stream().map(JobKind::wire).toArray(String[]::new))
        .query(Agents::map).optional();
  }

  /** True when the agent exists and {@code tokenId} registered it. */
  boolean ownedBy(long id, long tokenId) {
    return jdbc.sql("SELECT EXISTS (SELECT 1 FROM lab_agent WHERE id = ? AND token_id = ? AND deletion_id IS NULL)").params(id, tokenId)
        .query(Boolean.class).single();
  }

  /** How many agents {@code tokenId} registered, and how many {@code product} has, leaving out this machine's. */
  record Counts(long ofToken, long ofProduct) {}

  Counts countsBesides(String product, String machine, long tokenId) {
    return jdbc.sql("""
        SELECT count(*) FILTER (WHERE token_id = ?), count(*) FILTER (WHERE product = ?)
          FROM lab_agent WHERE NOT (product = ? AND machine = ?) AND (token_id = ? OR product = ?)
           AND deletion_id IS NULL""")
        .params(tokenId, product, product, machine, tokenId, product)
        .query((rs, n) -> new Counts(rs.getLong(1), rs.getLong(2))).single();
  }

  static final String HEARTBEAT = """
      UPDATE lab_agent SET last_seen_at = now(), progress = ?, targets = COALESCE(?, targets)
      WHERE id = ? AND deletion_id IS NULL
      RETURNING\s""" + COLUMNS;

  Optional<Agent> heartbeat(long id, String progress, List<String> targets) {
    return jdbc.sql(HEARTBEAT).params(progress, targets == null ? null : targets.toArray(String[]::new), id)
        .query(Agents::map).optional();
  }

  Optional<Agent> find(long id) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM lab_agent WHERE id = ? AND deletion_id IS NULL").param(id).query(Agents::map).optional();
  }

  Optional<Agent> find(String product, String machine) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM lab_agent WHERE product = ? AND machine = ? AND deletion_id IS NULL")
        .params(product, machine).query(Agents::map).optional();
  }

  /** One page of the agents, by product and machine. */
  List<Agent> page(int page, int size) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM lab_agent WHERE deletion_id IS NULL ORDER BY product, machine LIMIT ? OFFSET ?")
        .params(size, (long) page * size).query(Agents::map).list();
  }

  long count() {
    return jdbc.sql("SELECT count(*) FROM lab_agent WHERE deletion_id IS NULL").query(Long.class).single();
  }

  /** The agents that take profile jobs. */
  List<Agent> takingProfiles() {
    return jdbc.sql("SELECT " + COLUMNS + " FROM lab_agent WHERE deletion_id IS NULL AND 'profile' = ANY (kinds)"
        + " ORDER BY id").query(Agents::map).list();
  }

  List<Agent> ofProduct(String product, String machine) {
    return jdbc.sql("SELECT " + COLUMNS + """
         FROM lab_agent WHERE product = ? AND (CAST(? AS text) IS NULL OR machine = ?) AND deletion_id IS NULL
         ORDER BY machine""")
        .params(product, machine, machine).query(Agents::map).list();
  }

  /** Marks agents silent for longer than {@code after} as mailed, and returns them: each is mailed once. */
  List<Agent> newlySilent(Duration after) {
    return jdbc.sql("UPDATE lab_agent SET silent_mailed = true WHERE NOT silent_mailed AND deletion_id IS NULL"
        + " AND last_seen_at < now() - CAST(? AS interval) RETURNING " + COLUMNS)
        .param(after.toSeconds() + " seconds").query(Agents::map).list();
  }

  /** True when the agent had been mailed as silent: it is back now, which is worth one mail too. */
  boolean back(long id) {
    return jdbc.sql("UPDATE lab_agent SET silent_mailed = false WHERE id = ? AND silent_mailed").param(id).update() == 1;
  }

  /** A job finished: the failure streak ends; true when the agent had been mailed as failing. */
  boolean succeeded(long id) {
    jdbc.sql("UPDATE lab_agent SET last_run_at = now(), consecutive_failures = 0 WHERE id = ?").param(id).update();
    return jdbc.sql("UPDATE lab_agent SET failing_mailed = false WHERE id = ? AND failing_mailed").param(id).update() == 1;
  }

  /** A job failed: returns the agent when this failure makes the streak long enough to mail (once). */
  Optional<Agent> failed(long id, String error, int failuresToMail) {
    jdbc.sql("""
        UPDATE lab_agent SET last_failure_at = now(), last_failure = ?, consecutive_failures = consecutive_failures + 1
        WHERE id = ?""").params(error, id).update();
    return jdbc.sql("UPDATE lab_agent SET failing_mailed = true WHERE id = ? AND NOT failing_mailed"
        + " AND consecutive_failures >= ? RETURNING " + COLUMNS).params(id, failuresToMail).query(Agents::map).optional();
  }
}
