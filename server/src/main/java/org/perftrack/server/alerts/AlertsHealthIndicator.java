package org.perftrack.server.alerts;

import java.time.Duration;
import java.time.Instant;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.mail.autoconfigure.MailProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/health} component {@code mailOutbox}:
 * the outbox and SMTP as operators need them. Always UP: a mail server that is away for an hour delays
 * mail, it does not make perftrack unusable, so it must not flap the whole service DOWN. The
 * {@code state} detail says what is wrong instead.
 */
@Component("mailOutbox")
class AlertsHealthIndicator implements HealthIndicator {

  private final AlertsProperties props;
  private final Outbox outbox;
  private final OutboxSender sender;
  private final ObjectProvider<MailProperties> mail;

  AlertsHealthIndicator(AlertsProperties props, Outbox outbox, OutboxSender sender, ObjectProvider<MailProperties> mail) {
    this.props = props;
    this.outbox = outbox;
    this.sender = sender;
    this.mail = mail;
  }

  @Override
  public Health health() {
    Outbox.State s;
    try {
      s = outbox.state();
    } catch (RuntimeException e) {
      // the database indicator says DOWN; this one must not turn a lost database into a 500
      return Health.unknown().withDetail("state", "database-unavailable").build();
    }
    Health.Builder h = Health.up()
        .withDetail("state", state(s))
        .withDetail("smtp", smtp())
        .withDetail("pending", s.count("pending") + s.count("sending"))
        .withDetail("failed", s.count("failed"))
        .withDetail("sent", s.count("sent"));
    if (s.oldestPending() != null) {
      h.withDetail("oldestPendingSeconds", Duration.between(s.oldestPending(), Instant.now()).toSeconds());
    }
    if (s.lastError() != null) {
      h.withDetail("lastError", s.lastError());
    }
    if (s.lastSent() != null) {
      h.withDetail("lastSentAt", s.lastSent().toString());
    }
    return h.build();
  }

  private String state(Outbox.State s) {
    if (!props.enabled()) {
      return "disabled";
    }
    if (!sender.smtpConfigured()) {
      return "smtp-not-configured";
    }
    if (s.count("failed") > 0) {
      return "failing";
    }
    return s.lastError() != null ? "retrying" : "ok";
  }

  private String smtp() {
    MailProperties m = mail.getIfAvailable();
    if (m == null || m.getHost() == null || !sender.smtpConfigured()) {
      return "not configured (spring.mail.host)";
    }
    return m.getHost() + ":" + (m.getPort() == null ? 25 : m.getPort());
  }
}
