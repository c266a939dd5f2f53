package org.perftrack.server.alerts;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.perftrack.server.detection.Regression;

/**
 * Where alerts are posted besides mail: a chat's incoming webhook or a receiver of signed JSON, with the mail
 * subscriptions' filters and the events it follows. The secret stays here: no view of it carries it.
 *
 * @param kind {@code slack} (also Mattermost), {@code teams}, {@code matrix} or {@code json}
 * @param secret the HMAC key of a {@code json} webhook, the access token of a {@code matrix} one, else null
 * @param disabledAt when a 410 Gone disabled it; nothing is queued or sent to it any more
 */
record Webhook(long id, String kind, String url, String secret, String productPattern, String machinePattern,
    String benchmarkPattern, double minChangePercent, List<String> events, String createdBy, Instant createdAt,
    Instant disabledAt, String disabledReason) {

  static final List<String> KINDS = List.of("slack", "teams", "matrix", "json");

  /**
   * The events a webhook may follow. {@code summary.*} carry a summary, {@code agent.*} the agent,
   * {@code bisection.done} the bisection, {@code regression.placed} the regression, {@code profile.done} the profile,
   * {@code schedule.missed} the lab's schedule.
   */
  static final List<String> EVENTS = List.of("summary.opened", "summary.grew", "summary.withdrawn", "agent.silent",
      "agent.back", "agent.failing", "agent.working", "bisection.done", "regression.placed", "profile.done",
      "schedule.missed");

  /** The event of the "send a test" button: every webhook takes it, whatever it follows. */
  static final String TEST = "test";

  boolean follows(String event) {
    return disabledAt == null && (TEST.equals(event) || events.contains(event));
  }

  boolean wants(Regression item) {
    return Subscription.wants(productPattern, machinePattern, benchmarkPattern, minChangePercent, item);
  }

  boolean about(String product, String machine) {
    return Glob.matches(productPattern, product) && Glob.matches(machinePattern, machine);
  }

  /** The recipient column of its outbox rows. */
  String recipient() {
    return "webhook:" + id;
  }

  /** Scheme, host and port: what the page and the logs may show (a Slack URL's path is a credential). */
  String site() {
    URI u = URI.create(url);
    return u.getScheme() + "://" + u.getHost() + (u.getPort() < 0 ? "" : ":" + u.getPort());
  }
}
