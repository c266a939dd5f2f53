package org.perftrack.server.detection;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Detection settings of the server ({@code perftrack.detection.*}); a product's per-benchmark settings
 * override {@code min-change} and may ignore a benchmark.
 *
 * @param secondaryMetrics metrics that say why a benchmark's primary metric (time-per-op, bandwidth)
 *     moved, not whether it got slower: they never raise a regression of their own (a ×2551 in context
 *     switches is no second slowdown), stay in the compare table and ride on the primary metric's
 *     regression as hints. A name may end or start with {@code *}: the converters name the extras of
 *     other tools' files that way (Google Benchmark's {@code counter:NAME}, pytest-benchmark's
 *     {@code extra:KEY}, JMH sample mode's percentiles {@code sample-time:p0.50}, hyperfine's user and
 *     system time)
 * @param minChange the smallest relative change worth an alert (0.02: 2 %), unless the series'
 *     between-session noise times {@code noiseMultiple} is larger
 * @param noiseMultiple how many times the between-session noise a change must exceed
 * @param window how many versions each side of a candidate step are looked at
 * @param falseDiscoveryRate the Benjamini-Hochberg level across all metrics of one run
 * @param batchSettle how long the runs of a session that gave {@code batchSize} wait for the session's other runs:
 *     when no run of the session arrived for this long, the runs stored are judged without the missing ones
 * @param batchMaxAge a session's runs are judged once its oldest waiting run waited this long, whatever keeps
 *     arriving (a run sent every few seconds cannot hold a session open)
 */
@ConfigurationProperties("perftrack.detection")
@Validated
public record DetectionProperties(
    @DefaultValue({"ctx-switches-per-op", "user-cpu-per-op", "sys-cpu-per-op", "user-time", "system-time",
        "counter:*", "extra:*", "sample-time:p*"}) @NotNull List<String> secondaryMetrics,
    @DefaultValue(MIN_CHANGE) @DecimalMin("0") @DecimalMax(value = "10", inclusive = false) double minChange,
    @DefaultValue(NOISE_MULTIPLE) @DecimalMin("0") double noiseMultiple,
    @DefaultValue(WINDOW) @Min(2) @Max(1000) int window,
    @DefaultValue(FALSE_DISCOVERY_RATE) @DecimalMin(value = "0", inclusive = false)
        @DecimalMax(value = "1", inclusive = false) double falseDiscoveryRate,
    @DefaultValue(BATCH_SETTLE) @NotNull @DurationMin(millis = 100) @DurationMax(hours = 24) Duration batchSettle,
    @DefaultValue(BATCH_MAX_AGE) @NotNull @DurationMin(millis = 100) @DurationMax(days = 7) Duration batchMaxAge) {

  static final String MIN_CHANGE = "0.02";
  static final String NOISE_MULTIPLE = "1.0";
  static final String WINDOW = "12";
  static final String FALSE_DISCOVERY_RATE = "0.01";
  static final String BATCH_SETTLE = "10s";
  static final String BATCH_MAX_AGE = "10m";

  public DetectionProperties {
    secondaryMetrics = secondaryMetrics == null ? null : List.copyOf(secondaryMetrics);
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

  /** The settings of a benchmark nobody configured. */
  DetectionSettings defaults() {
    return new DetectionSettings(minChange, noiseMultiple, window, falseDiscoveryRate, false);
  }
}
