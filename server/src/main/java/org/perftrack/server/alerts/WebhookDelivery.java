package org.perftrack.server.alerts;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Sends claimed webhook deliveries one by one and records each outcome, fenced by the lease like a mail: a 2xx is
 * sent; a 5xx, 429, time-out or lost connection waits with the mails' backoff and keeps its delivery id; a 410 Gone
 * disables the webhook; any other answer (a 4xx, a redirect) or a refused address drops the delivery with its
 * reason. Logs name the webhook by id and host only: its URL path and secret are credentials.
 */
@Component
class WebhookDelivery {

  private static final Logger log = LoggerFactory.getLogger(WebhookDelivery.class);

  private final AlertsProperties props;
  private final Outbox outbox;
  private final Webhooks webhooks;
  private final WebhookBodies bodies;
  private final WebhookHttp http;

  WebhookDelivery(AlertsProperties props, Outbox outbox, Webhooks webhooks, WebhookBodies bodies, WebhookHttp http) {
    this.props = props;
    this.outbox = outbox;
    this.webhooks = webhooks;
    this.bodies = bodies;
    this.http = http;
  }

  void send(List<Outbox.Claimed> batch, String owner) {
    for (Outbox.Claimed row : batch) {
      Optional<Webhook> webhook = webhooks.find(row.webhookId());
      if (webhook.isEmpty() || webhook.get().disabledAt() != null) {
        outbox.failed(row.id(), owner, "not sent: the webhook is disabled or gone", Duration.ZERO, true);
        continue;
      }
      send(row, webhook.get(), owner);
    }
  }

  private void send(Outbox.Claimed row, Webhook w, String owner) {
    WebhookHttp.Answer answer;
    try {
      WebhookBodies.Call call = bodies.call(w, row.messageId(), row.event(), System.currentTimeMillis() / 1000);
      if (call.body().length > bodies.maxBodyBytes()) {
        drop(row, w, owner, "not sent: the body (" + call.body().length + " bytes) is over perftrack.webhooks."
            + "max-body-bytes", null);
        return;
      }
      answer = http.send(call);
    } catch (NetworkGuard.Refused e) {
      drop(row, w, owner, "refused: " + e.getMessage(), null);
      return;
    } catch (IOException | RuntimeException e) {
      retry(row, w, owner, describe(e), null);
      return;
    }
    int status = answer.status();
    String said = "HTTP " + status + (answer.excerpt().isEmpty() ? "" : ": " + answer.excerpt());
    if (status >= 200 && status < 300) {
      if (!outbox.delivered(row.id(), owner, status)) {
        log.warn("webhooks: delivery {} to webhook {} was sent after its lease had passed to another server",
            row.messageId(), w.id());
      }
    } else if (status >= 500 || status == 429 || status == 408) {
      retry(row, w, owner, said, status);
    } else if (status == 410) {
      drop(row, w, owner, said, status);
      webhooks.disable(w.id(), "the receiver answered 410 Gone");
      log.warn("webhooks: webhook {} ({}) answered 410 Gone and is disabled", w.id(), w.site());
    } else {
      drop(row, w, owner, "dropped: " + said, status);
    }
  }

  private void retry(Outbox.Claimed row, Webhook w, String owner, String error, Integer status) {
    int attempts = row.attempts() + 1;
    boolean giveUp = attempts >= props.maxAttempts();
    outbox.failed(row.id(), owner, error, props.backoffAfter(attempts), giveUp, status);
    if (attempts == 1 || giveUp) {
      log.warn("webhooks: delivery {} to webhook {} ({}) failed (attempt {}{}): {}", row.messageId(), w.id(), w.site(),
          attempts, giveUp ? ", giving up" : ", will retry", error);
    }
  }

  private void drop(Outbox.Claimed row, Webhook w, String owner, String reason, Integer status) {
    outbox.failed(row.id(), owner, reason, Duration.ZERO, true, status);
    log.warn("webhooks: delivery {} to webhook {} ({}) not delivered: {}", row.messageId(), w.id(), w.site(), reason);
  }

  private static String describe(Exception e) {
    String what = e instanceof java.net.SocketTimeoutException ? "timed out"
        : e instanceof java.net.ConnectException ? "could not connect" : e.getClass().getSimpleName();
    return what + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }
}
