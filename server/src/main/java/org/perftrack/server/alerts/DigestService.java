package org.perftrack.server.alerts;

import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import org.perftrack.server.detection.Regression;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The daily digest for subscriptions in {@code digest} mode: the open regressions each one follows.
 * Whichever server first claims the day (a row in {@code alert_digest_day}) queues the mails, in the
 * same transaction, so two servers never make two digests for one day.
 */
@Service
class DigestService {

  private final AlertsProperties props;
  private final JdbcClient jdbc;
  private final Subscriptions subscriptions;
  private final Announcements announcements;
  private final Outbox outbox;
  private final TransactionTemplate tx;
  private final Clock clock = Clock.systemUTC();
  private volatile LocalDate lastDay;

  DigestService(AlertsProperties props, JdbcClient jdbc, Subscriptions subscriptions, Announcements announcements,
      Outbox outbox, TransactionTemplate tx) {
    this.props = props;
    this.jdbc = jdbc;
    this.subscriptions = subscriptions;
    this.announcements = announcements;
    this.outbox = outbox;
    this.tx = tx;
  }

  /** Called on every sender pass; touches the database once a day per server. */
  void makeIfDue() {
    ZonedDateTime now = ZonedDateTime.now(clock.withZone(ZoneOffset.UTC));
    LocalDate today = now.toLocalDate();
    if (today.equals(lastDay) || now.toLocalTime().isBefore(props.digestTime())) {
      return;
    }
    make(today);
    lastDay = today;
  }

  /** Queues the digest of {@code day} unless some server already did; returns the number of mails queued. */
  int make(LocalDate day) {
    Integer queued = tx.execute(status -> {
      boolean claimed = jdbc.sql("""
          INSERT INTO alert_digest_day (day, made_by) VALUES (?, ?) ON CONFLICT (day) DO NOTHING""")
          .params(day, "perftrack").update() == 1;
      return claimed ? queue(day) : 0;
    });
    return queued == null ? 0 : queued;
  }

  private int queue(LocalDate day) {
    List<Regression> open = announcements.stillOpen();
    int queued = 0;
    for (Subscription s : subscriptions.active()) {
      List<Regression> wanted = open.stream().filter(s::wants).toList();
      if (s.mode().equals(Subscription.DIGEST) && !wanted.isEmpty()) {
        var payload = new MailPayload("digest", null, null, null, null, wanted, s.unsubscribeToken());
        String subject = "[perftrack] daily digest " + day + ": " + wanted.size() + " open regression"
            + (wanted.size() == 1 ? "" : "s");
        queued += outbox.add("digest", day.toString(), s, subject, payload) ? 1 : 0;
      }
    }
    return queued;
  }
}
