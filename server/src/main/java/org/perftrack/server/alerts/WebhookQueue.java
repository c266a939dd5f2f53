package org.perftrack.server.alerts;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.perftrack.server.detection.Regression;
import org.springframework.stereotype.Component;

/**
 * Queues webhook deliveries in the caller's transaction, one outbox row per event and webhook: a summary's as its
 * mail is (due after the settle time, updated while it waits, one follow-up when it grew later, never a third), the
 * others at once. Returns how many rows it wrote.
 */
@Component
class WebhookQueue {

  private final Webhooks webhooks;
  private final Outbox outbox;

  WebhookQueue(Webhooks webhooks, Outbox outbox) {
    this.webhooks = webhooks;
    this.outbox = outbox;
  }

  int summary(long summaryId, boolean grew, String headline, String url, List<Regression> members, Duration settle) {
    String opened = "summary.opened:" + summaryId;
    String followUp = "summary.grew:" + summaryId;
    int queued = 0;
    for (Webhook w : webhooks.active()) {
      List<Regression> wanted = members.stream().filter(w::wants)
          .sorted(Comparator.comparingDouble(Regression::severity).reversed()).toList();
      if (wanted.isEmpty()) {
        continue;
      }
      Regression worst = wanted.get(0);
      WebhookPayload first = summaryPayload("summary.opened", worst, headline, url, summaryId, wanted);
      WebhookPayload more = summaryPayload("summary.grew", worst, headline, url, summaryId, wanted);
      if (outbox.replacePendingWebhook(List.of(opened), w, headline, first)
          || outbox.replacePendingWebhook(List.of(followUp), w, headline, more)) {
        continue;
      }
      boolean wantsOpened = w.follows("summary.opened");
      boolean added = grew && w.follows("summary.grew") && (!wantsOpened || outbox.sentWebhook(List.of(opened), w).isPresent())
          ? outbox.addWebhook(followUp, w, headline, more, settle)
          : wantsOpened && outbox.addWebhook(opened, w, headline, first, settle);
      queued += added ? 1 : 0;
    }
    return queued;
  }

  /**
   * A summary withdrawn: what had not gone out is dropped (true when something was); a webhook that heard of it
   * hears that it was withdrawn.
   */
  boolean withdrawn(long summaryId) {
    List<String> keys = List.of("summary.opened:" + summaryId, "summary.grew:" + summaryId);
    boolean dropped = outbox.dropPending("webhook", keys) > 0;
    for (Webhook w : webhooks.active()) {
      if (!w.follows("summary.withdrawn")) {
        continue;
      }
      outbox.sentWebhook(keys, w).ifPresent(sent -> {
        String headline = sent.product() + " " + sent.version() + ": withdrawn, its regressions belong to other "
            + "versions now";
        outbox.addWebhook("summary.withdrawn:" + summaryId, w, headline, new WebhookPayload("summary.withdrawn",
            sent.product(), null, sent.version(), headline, null, sent.link(), summaryId, List.of(), Map.of()),
            Duration.ZERO);
      });
    }
    return dropped;
  }

  /** Any other event, to each webhook that follows its name, product and machine. */
  int event(AlertService.Event e) {
    int queued = 0;
    for (Webhook w : webhooks.active()) {
      if (w.follows(e.name()) && w.about(e.product(), e.machine())) {
        queued += outbox.addWebhook(e.name() + ":" + e.key(), w, e.headline(), payload(e), Duration.ZERO) ? 1 : 0;
      }
    }
    return queued;
  }

  /** The "send a test" button: one delivery to this webhook only, whatever it follows. */
  boolean test(Webhook w, String key) {
    String headline = "perftrack test: this webhook works";
    return outbox.addWebhook(Webhook.TEST + ":" + key, w, headline, new WebhookPayload(Webhook.TEST, null, null, null,
        headline, "A test from perftrack: alerts will arrive here like this one.", "/alerts/subscriptions", null,
        List.of(), Map.of()), Duration.ZERO);
  }

  static WebhookPayload payload(AlertService.Event e) {
    return new WebhookPayload(e.name(), e.product(), e.machine(), null, e.headline(), e.text(), e.link(), null,
        List.of(), e.about());
  }

  private static WebhookPayload summaryPayload(String event, Regression worst, String headline, String url, long id,
      List<Regression> members) {
    return new WebhookPayload(event, worst.product(), null, worst.version(), headline, null, url, id, members,
        Map.of());
  }
}
