package org.perftrack.server.alerts;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import org.perftrack.server.db.Json;
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
  record Claimed(long id, String recipient, String subject, String payload, String messageId, int attempts,
      Long webhookId) {
    MailPayload mail() {
      return Json.MAPPER.readValue(payload, MailPayload.class);
    }

    WebhookPayload event() {
      return Json.MAPPER.readValue(payload, WebhookPayload.class);
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

  /** A mail held for a confirmation under way ({@link MailHold}), not sent yet. */
  record Held(long id, String kind, String subject, MailPayload payload) {}

  static final String HELD = """
      SELECT id, kind, subject, payload::text AS payload FROM alert_outbox
       WHERE kind IN ('run', 'summary') AND status = 'pending' AND next_attempt_at > now()
         AND payload -> 'items' @> jsonb_build_array(jsonb_build_object('id', CAST(? AS bigint)))
       ORDER BY id FOR UPDATE""";

  /** The mails not sent yet that announce this regression (locked until the caller's transaction ends). */
  List<Held> held(long regressionId) {
    return jdbc.sql(HELD).param(regressionId).query((rs, i) -> new Held(rs.getLong("id"), rs.getString("kind"),
        rs.getString("subject"), Json.MAPPER.readValue(rs.getString("payload"), MailPayload.class))).list();
  }

  static final String RELEASE = """
      UPDATE alert_outbox SET subject = ?, payload = CAST(? AS jsonb),
             next_attempt_at = least(next_attempt_at, greatest(now(), created_at + CAST(? AS interval)))
       WHERE id = ? AND status = 'pending'""";

  /** A held mail says what it announces as it stands now and is due once {@code settle} from its queueing passed. */
  void release(Held mail, String subject, MailPayload payload, Duration settle) {
    jdbc.sql(RELEASE).params(subject, Json.MAPPER.writeValueAsString(payload), settle.toMillis() + " milliseconds",
        mail.id()).update();
  }

  /** A held mail left announcing nothing is not sent. */
  void drop(Held mail) {
    jdbc.sql("DELETE FROM alert_outbox WHERE id = ? AND status = 'pending'").param(mail.id()).update();
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
                       WHERE ((status = 'pending' AND next_attempt_at <= now())
                              OR (status = 'sending' AND locked_until < now()))
                         AND (kind = 'webhook') = :webhooks
                       ORDER BY id
                       LIMIT :limit
                       FOR UPDATE SKIP LOCKED)
      RETURNING o.id, o.recipient, o.subject, CAST(o.payload AS text) AS payload, o.message_id, o.attempts,
                o.webhook_id""";

  /** Due mails, or ({@code webhooks}) due webhook deliveries: each channel is sent by its own pass. */
  List<Claimed> claim(String owner, Duration lease, int limit, boolean webhooks) {
    return jdbc.sql(CLAIM).param("owner", owner).param("lease", lease.toMillis() + " milliseconds")
        .param("limit", limit).param("webhooks", webhooks).query(Claimed.class).list();
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
    failed(id, owner, error, wait, giveUp, null);
  }

  /** As {@link #failed(long, String, String, Duration, boolean)}, with the HTTP status a webhook's receiver answered. */
  void failed(long id, String owner, String error, Duration wait, boolean giveUp, Integer answerCode) {
    jdbc.sql("""
        UPDATE alert_outbox SET status = CASE WHEN ? THEN 'failed' ELSE 'pending' END,
               attempts = attempts + 1, last_error = ?, next_attempt_at = now() + CAST(? AS interval),
               locked_by = NULL, locked_until = NULL, answer_code = ?
        WHERE id = ? AND status = 'sending' AND locked_by = ?""")
        .params(giveUp, error, wait.toMillis() + " milliseconds", answerCode, id, owner).update();
  }

  /** A webhook's receiver took the delivery (a 2xx answer); false when the lease had passed to another server. */
  boolean delivered(long id, String owner, int answerCode) {
    return jdbc.sql("""
        UPDATE alert_outbox SET status = 'sent', sent_at = clock_timestamp(), sent_by = locked_by, answer_code = ?,
               attempts = attempts + 1, locked_by = NULL, locked_until = NULL, last_error = NULL
        WHERE id = ? AND status = 'sending' AND locked_by = ?""").params(answerCode, id, owner).update() == 1;
  }

  static final String ADD_WEBHOOK = """
      INSERT INTO alert_outbox (kind, dedup_key, recipient, webhook_id, subject, payload, message_id, next_attempt_at)
      VALUES ('webhook', ?, ?, ?, ?, CAST(? AS jsonb), ?, now() + CAST(? AS interval))
      ON CONFLICT (kind, dedup_key, recipient) DO NOTHING""";

  /**
   * Queues one delivery of an event to a webhook, due after {@code settle}; false when this event already has one
   * for it (the unique key makes that so also when two servers queue it at once). Its delivery id is made here.
   */
  boolean addWebhook(String dedupKey, Webhook to, String subject, WebhookPayload payload, Duration settle) {
    return jdbc.sql(ADD_WEBHOOK).params(dedupKey, to.recipient(), to.id(), subject,
        Json.MAPPER.writeValueAsString(payload), UUID.randomUUID().toString(), settle.toMillis() + " milliseconds")
        .update() == 1;
  }

  /** Updates a webhook's delivery not sent yet (a summary that grew while it settled); false when none was pending. */
  boolean replacePendingWebhook(List<String> dedupKeys, Webhook to, String subject, WebhookPayload payload) {
    return jdbc.sql(REPLACE_PENDING).params(subject, Json.MAPPER.writeValueAsString(payload), "webhook",
        dedupKeys.toArray(String[]::new), to.recipient()).update() > 0;
  }

  /** The newest of these events that reached this webhook already (it may need to hear that it was withdrawn). */
  java.util.Optional<WebhookPayload> sentWebhook(List<String> dedupKeys, Webhook to) {
    return jdbc.sql("""
        SELECT CAST(payload AS text) FROM alert_outbox
        WHERE kind = 'webhook' AND dedup_key = ANY(?::text[]) AND recipient = ? AND status IN ('sending', 'sent')
        ORDER BY id DESC LIMIT 1""")
        .params(dedupKeys.toArray(String[]::new), to.recipient()).query(String.class).optional()
        .map(p -> Json.MAPPER.readValue(p, WebhookPayload.class));
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
    Map<String, Long> counts = jdbc.sql("SELECT status, count(*) AS n FROM alert_outbox WHERE kind <> 'webhook' GROUP BY status")
        .query((rs, i) -> Map.entry(rs.getString(1), rs.getLong(2))).list().stream()
        .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    Instant oldest = jdbc.sql("""
        SELECT min(created_at) FROM alert_outbox WHERE status IN ('pending', 'sending') AND kind <> 'webhook'""")
        .query(Instant.class).optional().orElse(null);
    String lastError = jdbc.sql("""
        SELECT last_error FROM alert_outbox WHERE last_error IS NOT NULL AND status <> 'sent' AND kind <> 'webhook'
        ORDER BY last_attempt_at DESC NULLS LAST LIMIT 1""").query(String.class).optional().orElse(null);
    Instant lastSent = jdbc.sql("SELECT max(sent_at) FROM alert_outbox WHERE kind <> 'webhook'").query(Instant.class).optional().orElse(null);
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
