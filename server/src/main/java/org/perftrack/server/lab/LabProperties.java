package org.perftrack.server.lab;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The lab loop ({@code perftrack.lab.*}).
 *
 * @param silentAfter an agent not heard from for this long is mailed about once (and once when it is back)
 * @param failuresToMail this many failed jobs in a row and the agent is mailed about once
 * @param lease how long a claimed job stays with its agent without a heartbeat; then it returns to the queue
 * @param maxAttempts a job claimed this many times without finishing fails for good
 * @param tick how often a server looks at leases, schedules, silent agents and bisections
 * @param bisectAutomatically false: bisections start only from the "Bisect" button or the API
 * @param maxAgentsPerToken the most agents one API token may register (one per product and machine)
 * @param maxAgentsPerProduct the most agents of one product, whatever tokens registered them
 * @param maxTargets the most versions one agent may offer (its targets and what its globs discover)
 * @param pageSize agents and jobs listed per page of {@code /lab} and {@code /api/v1/lab}
 */
@ConfigurationProperties("perftrack.lab")
@Validated
public record LabProperties(
    @DefaultValue("26h") @NotNull @DurationMin(seconds = 1) Duration silentAfter,
    @DefaultValue("3") @Min(1) int failuresToMail,
    @DefaultValue("10m") @NotNull @DurationMin(seconds = 1) Duration lease,
    @DefaultValue("3") @Min(1) int maxAttempts,
    @DefaultValue("5s") @NotNull @DurationMin(millis = 10) Duration tick,
    @DefaultValue("true") boolean bisectAutomatically,
    @DefaultValue("100") @Min(1) int maxAgentsPerToken,
    @DefaultValue("500") @Min(1) int maxAgentsPerProduct,
    @DefaultValue("200") @Min(1) int maxTargets,
    @DefaultValue("50") @Min(1) @Max(1000) int pageSize) {}
