package org.perftrack.server.alerts;

import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Webhooks in PostgreSQL, and the last deliveries of each (their outbox rows). */
@Repository
class Webhooks {

  /** A webhook just made, with its secret: the one moment the secret is shown. */
  record Created(Webhook webhook, String secret) {}

  /** One delivery as the page and the API show it. */
  record Delivery(long outboxId, String id, String event, String status, Integer answerCode, int attempts,
      String lastError, Instant createdAt, Instant lastAttemptAt, Instant sentAt) {}

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String COLUMNS = """
      id, kind, url, secret, product_pattern, machine_pattern, benchmark_pattern, min_change_percent, events,
      created_by, created_at, disabled_at, disabled_reason""";

  private final JdbcClient jdbc;
  private final NetworkGuard guard;

  Webhooks(JdbcClient jdbc, NetworkGuard guard) {
    this.jdbc = jdbc;
    this.guard = guard;
  }

  static final String INSERT = """
      INSERT INTO alert_webhook
        (kind, url, secret, product_pattern, machine_pattern, benchmark_pattern, min_change_percent, events, created_by)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      RETURNING\s""" + COLUMNS;

  Created create(WebhookRequest request, String createdBy) {
    WebhookRequest r = request.validated(guard);
    String secret = r.secret() == null && r.kind().equals("json") ? newSecret() : r.secret();
    Webhook w = jdbc.sql(INSERT).params(r.kind(), r.url(), secret, r.product(), r.machine(), r.benchmark(),
        r.minChangePercent(), r.events().toArray(String[]::new), createdBy).query(Webhooks::row).single();
    return new Created(w, secret);
  }

  List<Webhook> all() {
    return jdbc.sql("SELECT " + COLUMNS + " FROM alert_webhook ORDER BY id").query(Webhooks::row).list();
  }

  /** Those that take deliveries now (not disabled). */
  List<Webhook> active() {
    return jdbc.sql("SELECT " + COLUMNS + " FROM alert_webhook WHERE disabled_at IS NULL ORDER BY id")
        .query(Webhooks::row).list();
  }

  Optional<Webhook> find(long id) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM alert_webhook WHERE id = ?").param(id).query(Webhooks::row).optional();
  }

  /** Removes a webhook and its deliveries (sent, waiting or failed). */
  boolean remove(long id) {
    return jdbc.sql("DELETE FROM alert_webhook WHERE id = ?").param(id).update() == 1;
  }

  /** A 410 Gone: nothing more is sent to it; its waiting deliveries fail with the reason. */
  void disable(long id, String reason) {
    jdbc.sql("UPDATE alert_webhook SET disabled_at = now(), disabled_reason = ? WHERE id = ? AND disabled_at IS NULL")
        .params(reason, id).update();
    jdbc.sql("""
        UPDATE alert_outbox SET status = 'failed', last_error = ?, locked_by = NULL, locked_until = NULL
        WHERE webhook_id = ? AND status = 'pending'""").params("not sent: the webhook is disabled (" + reason + ")", id)
        .update();
  }

  static final String DELIVERIES = """
      SELECT id AS outbox_id, message_id AS id, payload ->> 'event' AS event, status, answer_code, attempts,
             last_error, created_at, last_attempt_at, sent_at
        FROM alert_outbox
       WHERE webhook_id = ?
       ORDER BY id DESC
       LIMIT ?""";

  /** Its newest deliveries first. */
  List<Delivery> deliveries(long webhookId, int limit) {
    return jdbc.sql(DELIVERIES).params(webhookId, limit).query(Delivery.class).list();
  }

  private static Webhook row(ResultSet rs, int i) throws SQLException {
    return new Webhook(rs.getLong("id"), rs.getString("kind"), rs.getString("url"), rs.getString("secret"),
        rs.getString("product_pattern"), rs.getString("machine_pattern"), rs.getString("benchmark_pattern"),
        rs.getDouble("min_change_percent"), List.of((String[]) rs.getArray("events").getArray()),
        rs.getString("created_by"), instant(rs, "created_at"), instant(rs, "disabled_at"),
        rs.getString("disabled_reason"));
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    var t = rs.getTimestamp(column);
    return t == null ? null : t.toInstant();
  }

  private static String newSecret() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return "whsec_" + HexFormat.of().formatHex(bytes);
  }
}
