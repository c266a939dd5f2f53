package org.perftrack.server.audit;

import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * Who changed what, when: exclusions, deletions, restores and purges of data, triage and settings. Written in the
 * transaction of the change itself, so the log and the data never disagree.
 */
@Service
public class Audit {

  /** One change: {@code action} is a verb ("excluded", "deleted", "triaged"), {@code target} what it touched. */
  public record Event(long id, Instant at, String actor, String action, String target, String detail) {}

  public static final int MAX_LIMIT = 1000;

  private final JdbcClient jdbc;

  public Audit(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String INSERT = "INSERT INTO audit_event (actor, action, target, detail) VALUES (?, ?, ?, ?)";

  public void record(String actor, String action, String target, String detail) {
    jdbc.sql(INSERT).params(actor, action, target, detail).update();
  }

  static final String LIST = """
      SELECT id, at, actor, action, target, detail FROM audit_event
      WHERE (?::text IS NULL OR actor = ?) AND (?::text IS NULL OR action = ?)
        AND (?::bigint IS NULL OR id < ?)
      ORDER BY id DESC LIMIT ?""";

  /** Newest first; {@code before} (an event id) pages back. */
  public List<Event> list(String actor, String action, Long before, int limit) {
    return jdbc.sql(LIST).params(actor, actor, action, action, before, before, limit).query(Event.class).list();
  }

  /** A filter left blank on the page or in the query is no filter. */
  static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
