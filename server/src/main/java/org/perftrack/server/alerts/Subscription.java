package org.perftrack.server.alerts;

import java.time.Instant;
import org.perftrack.server.detection.Regression;

/**
 * Who wants which regressions by mail. Configured recipients ({@code source = config}) are
 * subscriptions without filters, so that they too have an unsubscribe token.
 */
public record Subscription(
    long id,
    String email,
    String source,
    String productPattern,
    String machinePattern,
    String benchmarkPattern,
    double minChangePercent,
    String mode,
    String unsubscribeToken,
    String createdBy,
    Instant createdAt) {

  static final String IMMEDIATE = "immediate";
  static final String DIGEST = "digest";

  boolean wants(Regression item) {
    return wants(productPattern, machinePattern, benchmarkPattern, minChangePercent, item);
  }

  /** The filters of a subscription and of a webhook, alike. */
  static boolean wants(String product, String machine, String benchmark, double minChangePercent, Regression item) {
    return Glob.matches(product, item.product())
        && Glob.matches(machine, item.machine())
        && Glob.matches(benchmark, item.benchmark())
        // a small epsilon so that "10 %" admits a ratio printed as 1.10
        && item.changePercent() + 1e-9 >= minChangePercent;
  }
}
