package org.perftrack.server.alerts;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.perftrack.formats.Json;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The outbox: a row is written in the transaction that found the regressions, and a sender claims it
 * with {@code FOR UPDATE SKIP LOCKED} plus a lease, so that several servers on one database never
 * send one row twice, and a row held by a server that died is taken over when its lease ends.
 */
@Repository
class Outbox {

  /** A row claimed for sending; {@code attempts} counts earlier attempts. */
  record Claimed(long id, String recipient, String subject, String payload, String messageId, int attempts) {
    MailPayload mail() {
      return Json.MAPPER.readValue(payload, MailPayload.class);
    }
  }

  /** A row as operators see it. */
  record Entry(long id, String kind, String recipient, String subject, String status, int attempts,
      Instant createdAt, Instant nextAttemptAt, Instant lastAttemptAt, Instant sentAt, String lastError, String lockedBy) {}

  /** Counts per status and the state of the oldest waiting mail, for health and the admin page. */
  record State(Map<String, Long> byStatus, Instant oldestPending, String lastError, Instant lastSent) {
    long count(String status) {
      return byStatus.getOrDefault(status, 0L);
    }
  }

  private final JdbcClient jdbc;

  Outbox(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String INSERT = """
      INSERT INTO alert_outbox (kind, dedup_key, recipient, subscription_id, subject, payload, message_id)
      VALUES (?, ?, ?, ?, ?, CAST(? AS jsonb), ?)
      ON CONFLICT (kind, dedup_key, recipient) DO NOTHING""";

  /** Queues one mail; false when this key already has a mail for this address (a re-sent run). */
  boolean add(String kind, String dedupKey, Subscription to, String subject, MailPayload payload) {
    String messageId = "<" + kind + "." + UUID.randomUUID() + "@perftrack>";
    return jdbc.sql(INSERT).params(kind, dedupKey, to.email(), to.id(), subject,
        Json.MAPPER.writeValueAsString(payload), messageId).update() == 1;
  }

  static final String ADD_LATER = """
      INSERT INTO alert_outbox (kind, dedup_key, recipient, subscription_id, subject, payload, message_id, next_attempt_at)
      VALUES (?, ?, ?, ?, ?, CAST(? AS jsonb), ?, now() + CAST(? AS interval))
      ON CONFLICT (kind, dedup_key, recipient) DO NOTHING""";

  /** Like {@link #add}, due only after {@code settle}: mails of uploads that arrive close together become one. */
  boolean addLater(String kind, String dedupKey, Subscription to, String subject, MailPayload payload,
      java.time.Duration settle) {
    String messageId = "<" + kind + "." + UUID.randomUUID() + "@perftrack>";
    return jdbc.sql(ADD_LATER).params(kind, dedupKey, to.email(), to.id(), subject,
        Json.MAPPER.writeValueAsString(payload), messageId, settle.toMillis() + " milliseconds").update() == 1;
  }

  static final String REPLACE_PENDING = """
      UPDATE alert_outbox SET subject = ?, payload = CAST(? AS jsonb)
      WHERE kind = ? AND dedup_key = ANY(?::text[]) AND recipient = ? AND status = 'pending'""";

  /** Updates a mail not sent yet (a summary that grew before its mail went out); false when none was pending. */
  boolean replacePending(String kind, List<String> dedupKeys, String recipient, String subject, MailPayload payload) {
    return jdbc.sql(REPLACE_PENDING).params(subject, Json.MAPPER.writeValueAsString(payload), kind,
        dedupKeys.toArray(String[]::new), recipient).update() > 0;
  }

  static final String DROP_PENDING = """
      DELETE FROM alert_outbox WHERE kind = ? AND dedup_key = ANY(?::text[]) AND status = 'pending'""";

  /** Forgets mails not sent yet (what they announce went away); returns how many. */
  int dropPending(String kind, List<String> dedupKeys) {
    return jdbc.sql(DROP_PENDING).params(kind, dedupKeys.toArray(String[]::new)).update();
  }

  static final String CLAIM = """
      UPDATE alert_outbox o
         SET status = 'sending', locked_by = :owner, locked_until = now() + CAST(:lease AS interval),
             last_attempt_at = now()
       WHERE o.id IN (SELECT id FROM alert_outbox
                       WHERE (status = 'pending' AND next_attempt_at <= now())
                          OR (status = 'sending' AND locked_until < now())
                       ORDER BY id
                       LIMIT :limit
                       FOR UPDATE SKIP LOCKED)
      RETURNING o.id, o.recipient, o.subject, CAST(o.payload AS text) AS payload, o.message_id, o.attempts""";

  List<Claimed> claim(String owner, Duration lease, int limit) {
    return jdbc.sql(CLAIM).param("owner", owner).param("lease", lease.toMillis() + " milliseconds")
        .param("limit", limit).query(Claimed.class).list();
  }

  /**
   * Marks mails sent, only those this server still holds (the lease is the fence); returns how many.
   * {@code clock_timestamp()}, not {@code now()}: the moment SMTP took them, for the latency figures.
   */
  int sent(List<Long> ids, String owner) {
    return jdbc.sql("""
        UPDATE alert_outbox SET status = 'sent', sent_at = clock_timestamp(), sent_by = locked_by,
               attempts = attempts + 1, locked_by = NULL, locked_until = NULL, last_error = NULL
        WHERE id = ANY (?) AND status = 'sending' AND locked_by = ?""")
        .params(ids.toArray(Long[]::new), owner).update();
  }

  /** Records a failed attempt: back to pending after {@code wait}, or failed for good. */
  void failed(long id, String owner, String error, Duration wait, boolean giveUp) {
    jdbc.sql("""
        UPDATE alert_outbox SET status = CASE WHEN ? THEN 'failed' ELSE 'pending' END,
               attempts = attempts + 1, last_error = ?, next_attempt_at = now() + CAST(? AS interval),
               locked_by = NULL, locked_until = NULL
        WHERE id = ? AND status = 'sending' AND locked_by = ?""")
        .params(giveUp, error, wait.toMillis() + " milliseconds", id, owner).update();
  }

  /** Forgets mails sent longer ago than {@code keep}; returns how many. */
  int pruneSent(Duration keep) {
    return jdbc.sql("DELETE FROM alert_outbox WHERE status = 'sent' AND sent_at < now() - CAST(? AS interval)")
        .param(keep.toSeconds() + " seconds").update();
  }

  /** Everything this server still holds goes back to the queue (a clean shutdown). */
  void releaseAll(String owner) {
    jdbc.sql("""
        UPDATE alert_outbox SET status = 'pending', locked_by = NULL, locked_until = NULL
        WHERE status = 'sending' AND locked_by = ?""").param(owner).update();
  }

  /** An operator's "try again": failed mails go back to the queue with a fresh attempt count. */
  int retryFailed() {
    return jdbc.sql("""
        UPDATE alert_outbox SET status = 'pending', attempts = 0, next_attempt_at = now()
        WHERE status = 'failed'""").update();
  }

  State state() {
    Map<String, Long> counts = jdbc.sql("SELECT status, count(*) AS n FROM alert_outbox GROUP BY status")
        .query((rs, i) -> Map.entry(rs.getString(1), rs.getLong(2))).list().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    Instant oldest = jdbc.sql("SELECT min(created_at) FROM alert_outbox WHERE status IN ('pending', 'sending')")
        .query(Instant.class).optional().orElse(null);
    String lastError = jdbc.sql("""
        SELECT last_error FROM alert_outbox WHERE last_error IS NOT NULL AND status <> 'sent'
        ORDER BY last_attempt_at DESC NULLS LAST LIMIT 1""").query(String.class).optional().orElse(null);
    Instant lastSent = jdbc.sql("SELECT max(sent_at) FROM alert_outbox").query(Instant.class).optional().orElse(null);
    return new State(counts, oldest, lastError, lastSent);
  }

  static final String RECENT = """
      SELECT id, kind, recipient, subject, status, attempts, created_at, next_attempt_at, last_attempt_at, sent_at,
             last_error, locked_by
        FROM alert_outbox
       WHERE CAST(:status AS text) IS NULL OR status = :status
       ORDER BY id DESC
       LIMIT :limit""";

  List<Entry> recent(String status, int limit) {
    return jdbc.sql(RECENT).param("status", status).param("limit", limit).query(Entry.class).list();
  }
}
