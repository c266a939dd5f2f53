package org.perftrack.server.curation;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Deleting data ({@code perftrack.curation.*}).
 *
 * @param keepDeleted how long a deleted run or version can be restored (listed under Recently deleted) before it is
 *     purged for good
 * @param purgeEvery how often a server looks for deletions older than {@code keepDeleted} to purge
 */
@ConfigurationProperties("perftrack.curation")
@Validated
public record CurationProperties(
    @DefaultValue("7d") @NotNull @DurationMin(seconds = 0) Duration keepDeleted,
    @DefaultValue("10m") @NotNull @DurationMin(millis = 10) Duration purgeEvery) {}
