package org.perftrack.server.detection;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Detection settings of the server.
 *
 * @param secondaryMetrics metrics that say why a benchmark's primary metric (time-per-op, bandwidth)
 *     moved, not whether it got slower: they never raise a regression of their own (a ×2551 in context
 *     switches is no second slowdown), stay in the compare table and ride on the primary metric's
 *     regression as hints
 */
@ConfigurationProperties("perftrack.detection")
public record DetectionProperties(
    @DefaultValue({"ctx-switches-per-op", "user-cpu-per-op", "sys-cpu-per-op"}) List<String> secondaryMetrics) {

  public DetectionProperties {
    secondaryMetrics = List.copyOf(secondaryMetrics);
  }

  public boolean isSecondary(String metric) {
    return secondaryMetrics.contains(metric);
  }
}
