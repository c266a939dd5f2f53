package org.perftrack.server.alerts;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.time.LocalTime;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Email alerts ({@code perftrack.alerts.*}).
 *
 * @param enabled false: nothing is queued and nothing is sent
 * @param recipients addresses that get every regression ({@code PERFTRACK_ALERTS_RECIPIENTS}, comma separated)
 * @param from the sender address
 * @param pollInterval how often a server looks for due mail when nothing woke it
 * @param maxAttempts after this many failed attempts a mail is marked failed (operators can retry it)
 * @param backoff the wait after the first failure; it doubles with each further failure
 * @param maxBackoff the longest wait between two attempts
 * @param lease how long a server may hold a batch it is sending before another may take it over; it must
 *     exceed the time SMTP may take for one batch (timeouts in application.properties: 10 s per mail)
 * @param batchSize mails claimed per pass and sent over one SMTP connection
 * @param digestTime when (UTC) the daily digest of open regressions goes out
 * @param keepSent how long sent mails stay in the outbox (failed ones stay until an operator retries them)
 * @param summarySettle how long a new summary's mail waits for more machines' uploads before it goes out
 */
@ConfigurationProperties("perftrack.alerts")
@Validated
public record AlertsProperties(
    @DefaultValue("true") boolean enabled,
    @DefaultValue List<String> recipients,
    @DefaultValue("perftrack <perftrack@localhost>") @NotBlank String from,
    @DefaultValue("2s") @NotNull @DurationMin(millis = 10) Duration pollInterval,
    @DefaultValue("20") @Min(1) int maxAttempts,
    @DefaultValue("5s") @NotNull @DurationMin(millis = 1) Duration backoff,
    @DefaultValue("10m") @NotNull @DurationMin(millis = 1) Duration maxBackoff,
    @DefaultValue("5m") @NotNull @DurationMin(seconds = 1) Duration lease,
    @DefaultValue("10") @Min(1) @Max(1000) int batchSize,
    @DefaultValue("07:00") @NotNull LocalTime digestTime,
    @DefaultValue("90d") @NotNull @DurationMin(hours = 1) Duration keepSent,
    @DefaultValue("2m") @NotNull Duration summarySettle) {

  public AlertsProperties {
    recipients = recipients == null ? List.of()
        : recipients.stream().map(String::trim).filter(s -> !s.isEmpty()).distinct().toList();
  }

  /** The wait before attempt {@code attempts + 1}, after {@code attempts} failures (at least 1). */
  Duration backoffAfter(int attempts) {
    int doublings = Math.min(Math.max(attempts - 1, 0), 30);
    Duration wait = backoff.multipliedBy(1L << doublings);
    return wait.compareTo(maxBackoff) > 0 ? maxBackoff : wait;
  }
}
