package org.perftrack.server.alerts;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.perftrack.server.problems.NotFound;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.Authentication;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /api/v1/webhooks}, admin tokens only (security/ApiAccess): make one (its secret is in that answer and no
 * other), list them with their last deliveries, send a test, remove one.
 */
@RestController
@RequestMapping("/api/v1/webhooks")
class WebhooksApi {

  static final int LAST_DELIVERIES = 10;

  /**
   * A webhook as the API shows it: never its secret, and a chat webhook's URL (a credential itself) only by its site.
   *
   * @param secret only in the answer that made it
   */
  record WebhookView(long id, String kind, String url, String product, String machine, String benchmark,
      double minChangePercent, List<String> events, String createdBy, Instant createdAt, Instant disabledAt,
      String disabledReason, List<Webhooks.Delivery> deliveries, String secret) {

    static WebhookView of(Webhook w, List<Webhooks.Delivery> deliveries, String secret) {
      return new WebhookView(w.id(), w.kind(), shown(w), w.productPattern(), w.machinePattern(), w.benchmarkPattern(),
          w.minChangePercent(), w.events(), w.createdBy(), w.createdAt(), w.disabledAt(), w.disabledReason(),
          deliveries, secret);
    }

    static String shown(Webhook w) {
      return w.kind().equals("slack") || w.kind().equals("teams") ? w.site() + "/…" : w.url();
    }
  }

  /** What the "send a test" call queued. */
  record TestQueued(long webhook, String event) {}

  private final Webhooks webhooks;
  private final WebhookQueue queue;
  private final OutboxSender sender;

  WebhooksApi(Webhooks webhooks, WebhookQueue queue, OutboxSender sender) {
    this.webhooks = webhooks;
    this.queue = queue;
    this.sender = sender;
  }

  @GetMapping
  List<WebhookView> list() {
    return webhooks.all().stream().map(w -> WebhookView.of(w, webhooks.deliveries(w.id(), LAST_DELIVERIES), null))
        .toList();
  }

  @GetMapping("/{id}")
  WebhookView get(@PathVariable long id) {
    Webhook w = webhooks.find(id).orElseThrow(() -> new NotFound("no webhook " + id));
    return WebhookView.of(w, webhooks.deliveries(id, LAST_DELIVERIES), null);
  }

  @PostMapping
  ResponseEntity<WebhookView> create(@RequestBody WebhookRequest request, Authentication auth) {
    Webhooks.Created made = webhooks.create(request, auth.getName());
    return ResponseEntity.created(URI.create("/api/v1/webhooks/" + made.webhook().id()))
        .body(WebhookView.of(made.webhook(), List.of(), made.secret()));
  }

  @PostMapping("/{id}/test")
  ResponseEntity<TestQueued> test(@PathVariable long id) {
    Webhook w = webhooks.find(id).orElseThrow(() -> new NotFound("no webhook " + id));
    queue.test(w, java.util.UUID.randomUUID().toString());
    sender.wake();
    return ResponseEntity.accepted().body(new TestQueued(id, Webhook.TEST));
  }

  @DeleteMapping("/{id}")
  ResponseEntity<Void> delete(@PathVariable long id) {
    if (!webhooks.remove(id)) {
      throw new NotFound("no webhook " + id);
    }
    return ResponseEntity.noContent().build();
  }
}
