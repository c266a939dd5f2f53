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
    return Glob.matches(productPattern, item.product())
        && Glob.matches(machinePattern, item.machine())
        && Glob.matches(benchmarkPattern, item.benchmark())
        // a small epsilon so that "10 %" admits a ratio printed as 1.10
        && item.changePercent() + 1e-9 >= minChangePercent;
  }
}
