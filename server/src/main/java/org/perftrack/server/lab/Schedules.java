package org.perftrack.server.lab;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import org.perftrack.server.problems.InvalidInput;
import org.perftrack.server.problems.Names;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.stereotype.Repository;

/** Cron schedules (Spring's six-field {@link CronExpression}, in UTC) that queue a run of every target. */
@Repository
class Schedules {

  record Schedule(long id, String product, String machine, String cron, Instant nextRunAt, String createdBy) {}

  private final JdbcClient jdbc;

  Schedules(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static CronExpression parse(String cron) {
    if (cron == null || cron.isBlank() || cron.length() > 200) {
      throw new InvalidInput("cron", "give a cron expression such as '0 0 2 * * *' (02:00 UTC daily)");
    }
    try {
      return CronExpression.parse(cron.trim());
    } catch (IllegalArgumentException e) {
      throw new InvalidInput("cron", "not a cron expression (six fields: second minute hour day month weekday): "
          + e.getMessage());
    }
  }

  static Instant next(CronExpression cron, Instant after) {
    ZonedDateTime next = cron.next(after.atZone(ZoneOffset.UTC));
    return next == null ? Instant.MAX : next.toInstant();
  }

  Schedule create(String product, String machine, String cron, String by) {
    Names.requireSegment("product", product);
    String m = machine == null || machine.isEmpty() ? null : Names.requireSegment("machine", machine);
    ZonedDateTime next = parse(cron).next(ZonedDateTime.now(ZoneOffset.UTC));
    if (next == null) {
      throw new InvalidInput("cron", "never fires: no date matches '" + cron.trim() + "' (such as the 30th of February)");
    }
    return jdbc.sql("""
        INSERT INTO lab_schedule (product, machine, cron, next_run_at, created_by) VALUES (?, ?, ?, ?, ?)
        RETURNING id, product, machine, cron, next_run_at, created_by""")
        .params(product, m, cron.trim(), java.sql.Timestamp.from(next.toInstant()), by).query(Schedule.class).single();
  }

  boolean delete(long id) {
    return jdbc.sql("DELETE FROM lab_schedule WHERE id = ?").param(id).update() == 1;
  }

  List<Schedule> all() {
    return jdbc.sql("SELECT id, product, machine, cron, next_run_at, created_by FROM lab_schedule ORDER BY product, id")
        .query(Schedule.class).list();
  }

  /** Due schedules, locked for this server's pass. */
  List<Schedule> dueLocked() {
    return jdbc.sql("""
        SELECT id, product, machine, cron, next_run_at, created_by FROM lab_schedule
         WHERE next_run_at <= now() ORDER BY id FOR UPDATE SKIP LOCKED""").query(Schedule.class).list();
  }

  void advanced(long id, Instant next) {
    jdbc.sql("UPDATE lab_schedule SET next_run_at = ? WHERE id = ?").params(java.sql.Timestamp.from(next), id).update();
  }
}
