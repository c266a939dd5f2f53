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
 *     regression as hints. A name may end or start with {@code *}: the converters name the extras of
 *     other tools' files that way (Google Benchmark's {@code counter:NAME}, pytest-benchmark's
 *     {@code extra:KEY}, JMH sample mode's percentiles {@code sample-time:p0.50}, hyperfine's user and
 *     system time)
 */
@ConfigurationProperties("perftrack.detection")
public record DetectionProperties(
    @DefaultValue({"ctx-switches-per-op", "user-cpu-per-op", "sys-cpu-per-op", "user-time", "system-time",
        "counter:*", "extra:*", "sample-time:p*"}) List<String> secondaryMetrics) {

  public DetectionProperties {
    secondaryMetrics = List.copyOf(secondaryMetrics);
  }

  public boolean isSecondary(String metric) {
    for (String name : secondaryMetrics) {
      boolean matches = name.endsWith("*") ? metric.startsWith(name.substring(0, name.length() - 1))
          : name.startsWith("*") ? metric.endsWith(name.substring(1)) : metric.equals(name);
      if (matches) {
        return true;
      }
    }
    return false;
  }
}
