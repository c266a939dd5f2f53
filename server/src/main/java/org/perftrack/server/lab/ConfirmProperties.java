package org.perftrack.server.lab;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.perftrack.server.detection.UnsureClaims;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Confirm jobs ({@code perftrack.lab.confirm.*}): the lab re-measures the suspect versions of a series detection is
 * unsure of.
 *
 * @param low a claim (or any step) less probable than this is no doubt worth a job
 * @param high a claim at least this probable is settled
 * @param suspectMass a version with at least this probability of being the step's is re-measured, with the one before
 * @param maxVersions the most versions one series re-measures in a round
 * @param rounds the most rounds of one series
 * @param idleRounds the most rounds when no other job of the machine has waited an hour
 * @param mailHold how long a regression's mail waits for a confirm round under way, at most
 */
@ConfigurationProperties("perftrack.lab.confirm")
@Validated
public record ConfirmProperties(
    @DefaultValue("0.01") @DecimalMin("0") @DecimalMax("1") double low,
    @DefaultValue("0.99") @DecimalMin("0") @DecimalMax("1") double high,
    @DefaultValue("0.05") @DecimalMin(value = "0", inclusive = false) @DecimalMax("1") double suspectMass,
    @DefaultValue("8") @Min(2) @Max(50) int maxVersions,
    @DefaultValue("2") @Min(1) @Max(20) int rounds,
    @DefaultValue("4") @Min(1) @Max(20) int idleRounds,
    @DefaultValue("15m") @NotNull @DurationMin(seconds = 0) Duration mailHold) {

  /** low below high: between them a claim is unsure. */
  @AssertTrue(message = "low must be below high")
  public boolean isLowBelowHigh() {
    return low < high;
  }

  /** The thresholds detection's model is judged by. */
  UnsureClaims.Doubt doubt() {
    return new UnsureClaims.Doubt(low, high, suspectMass, maxVersions);
  }

  /** The most rounds a series gets now: more when the machine's queue is idle. */
  int roundsFor(boolean othersWaitedAnHour) {
    return othersWaitedAnHour ? rounds : Math.max(rounds, idleRounds);
  }
}
