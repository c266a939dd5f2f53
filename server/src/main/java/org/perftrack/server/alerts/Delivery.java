package org.perftrack.server.alerts;

import jakarta.mail.internet.MimeMessage;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.mail.MailException;
import org.springframework.mail.MailSendException;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.stereotype.Component;

/**
 * Hands one claimed batch to SMTP over one connection and records each mail's outcome: sent, or
 * failed with the SMTP error and the next attempt after exponential backoff.
 */
@Component
class Delivery {

  private static final Logger log = LoggerFactory.getLogger(Delivery.class);

  private final AlertsProperties props;
  private final Outbox outbox;
  private final MailComposer composer;

  Delivery(AlertsProperties props, Outbox outbox, MailComposer composer) {
    this.props = props;
    this.outbox = outbox;
    this.composer = composer;
  }

  void send(JavaMailSender smtp, List<Outbox.Claimed> batch, String owner) {
    Map<MimeMessage, Outbox.Claimed> composed = compose(batch, owner);
    if (composed.isEmpty()) {
      return;
    }
    Map<Object, Exception> failures = transmit(smtp, List.copyOf(composed.keySet()));
    List<Long> sent = new ArrayList<>();
    composed.forEach((message, row) -> {
      Exception error = failures.get(message);
      if (error != null) {
        failed(row, owner, error);
      } else {
        sent.add(row.id());
      }
    });
    if (!sent.isEmpty() && outbox.sent(sent, owner) < sent.size()) {
      log.warn("alerts: some of mails {} were sent after their lease had passed to another server", sent);
    }
  }

  /** The batch as MIME messages; a mail that cannot be rendered fails on its own. */
  private Map<MimeMessage, Outbox.Claimed> compose(List<Outbox.Claimed> batch, String owner) {
    Map<MimeMessage, Outbox.Claimed> composed = new IdentityHashMap<>();
    for (Outbox.Claimed row : batch) {
      try {
        composed.put(composer.compose(row), row);
      } catch (Exception e) {
        failed(row, owner, e);
      }
    }
    return composed;
  }

  /** Sends over one connection; returns the messages SMTP did not take, with why (all of them when it was unreachable). */
  private static Map<Object, Exception> transmit(JavaMailSender smtp, List<MimeMessage> messages) {
    Map<Object, Exception> failures = new IdentityHashMap<>();
    try {
      smtp.send(messages.toArray(MimeMessage[]::new));
    } catch (MailSendException e) {
      failures.putAll(e.getFailedMessages());
      if (failures.isEmpty()) {
        messages.forEach(m -> failures.put(m, e));
      }
    } catch (MailException e) {
      messages.forEach(m -> failures.put(m, e));
    }
    return failures;
  }

  private void failed(Outbox.Claimed row, String owner, Exception e) {
    int attempts = row.attempts() + 1;
    boolean giveUp = attempts >= props.maxAttempts();
    String error = SmtpErrors.describe(e);
    outbox.failed(row.id(), owner, error, props.backoffAfter(attempts), giveUp);
    // an SMTP server away for an hour must not flood the log: the first failure and the last say it
    if (attempts == 1 || giveUp) {
      log.warn("alerts: mail {} to {} failed (attempt {}{}): {}", row.id(), row.recipient(), attempts,
          giveUp ? ", giving up; /admin/outbox can retry it" : ", will retry", error);
    } else {
      log.debug("alerts: mail {} failed again (attempt {}): {}", row.id(), attempts, error);
    }
  }
}
