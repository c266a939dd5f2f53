package org.perftrack.server.lab;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The agents of the lab: one row per product and machine, kept current by registrations and heartbeats. */
@Repository
class Agents {

  /** An agent as the lab page shows it. */
  record Agent(long id, String product, String machine, String agentVersion, int heartbeatSeconds,
      List<String> targets, Instant registeredAt, Instant lastSeenAt, String progress, int consecutiveFailures,
      Instant lastRunAt, Instant lastFailureAt, String lastFailure, boolean silentMailed, boolean failingMailed) {

    boolean online(Instant now) {
      return lastSeenAt.plusSeconds(3L * heartbeatSeconds + 5).isAfter(now);
    }
  }

  private static final String COLUMNS = """
      id, product, machine, agent_version, heartbeat_seconds, targets, registered_at, last_seen_at, progress,
      consecutive_failures, last_run_at, last_failure_at, last_failure, silent_mailed, failing_mailed
      """;

  private final JdbcClient jdbc;

  static Agent map(ResultSet rs, int row) throws SQLException {
    return new Agent(rs.getLong("id"), rs.getString("product"), rs.getString("machine"), rs.getString("agent_version"),
        rs.getInt("heartbeat_seconds"), Sql.strings(rs, "targets"), Sql.instant(rs, "registered_at"),
        Sql.instant(rs, "last_seen_at"), rs.getString("progress"), rs.getInt("consecutive_failures"),
        Sql.instant(rs, "last_run_at"), Sql.instant(rs, "last_failure_at"), rs.getString("last_failure"),
        rs.getBoolean("silent_mailed"), rs.getBoolean("failing_mailed"));
  }

  Agents(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String REGISTER = """
      INSERT INTO lab_agent (product, machine, agent_version, heartbeat_seconds, targets)
      VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (product, machine) DO UPDATE
         SET agent_version = excluded.agent_version, heartbeat_seconds = excluded.heartbeat_seconds,
             targets = excluded.targets, registered_at = now(), last_seen_at = now(), progress = NULL
      RETURNING\s""" + COLUMNS;

  Agent register(String product, String machine, String agentVersion, int heartbeatSeconds, List<String> targets) {
    return jdbc.sql(REGISTER).params(product, machine, agentVersion, heartbeatSeconds, targets.toArray(String[]::new))
        .query(Agents::map).single();
  }

  static final String HEARTBEAT = """
      UPDATE lab_agent SET last_seen_at = now(), progress = ?, targets = COALESCE(?, targets)
      WHERE id = ?
      RETURNING\s""" + COLUMNS;

  Optional<Agent> heartbeat(long id, String progress, List<String> targets) {
    return jdbc.sql(HEARTBEAT).params(progress, targets == null ? null : targets.toArray(String[]::new), id)
        .query(Agents::map).optional();
  }

  Optional<Agent> find(long id) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM lab_agent WHERE id = ?").param(id).query(Agents::map).optional();
  }

  Optional<Agent> find(String product, String machine) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM lab_agent WHERE product = ? AND machine = ?")
        .params(product, machine).query(Agents::map).optional();
  }

  List<Agent> all() {
    return jdbc.sql("SELECT " + COLUMNS + " FROM lab_agent ORDER BY product, machine").query(Agents::map).list();
  }

  List<Agent> ofProduct(String product, String machine) {
    return jdbc.sql("SELECT " + COLUMNS + """
         FROM lab_agent WHERE product = ? AND (CAST(? AS text) IS NULL OR machine = ?) ORDER BY machine""")
        .params(product, machine, machine).query(Agents::map).list();
  }

  /** Marks agents silent for longer than {@code after} as mailed, and returns them: each is mailed once. */
  List<Agent> newlySilent(Duration after) {
    return jdbc.sql("UPDATE lab_agent SET silent_mailed = true WHERE NOT silent_mailed"
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
