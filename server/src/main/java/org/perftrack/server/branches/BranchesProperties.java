package org.perftrack.server.branches;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param pruneAfter a branch without a run for this long is deleted with its runs (a merged pull request's)
 * @param maxPerProduct the most branches a product has at once (a run that would start one more: 409)
 * @param maxPerToken the most branches the runs of one API token started that exist at once
 */
@ConfigurationProperties("perftrack.branches")
@Validated
record BranchesProperties(@DefaultValue("90d") @NotNull Duration pruneAfter,
    @DefaultValue("1000") @Min(1) int maxPerProduct, @DefaultValue("1000") @Min(1) int maxPerToken) {

  BranchesProperties {
    if (pruneAfter != null && (pruneAfter.isNegative() || pruneAfter.isZero())) {
      throw new IllegalArgumentException("perftrack.branches.prune-after must be positive, got " + pruneAfter);
    }
  }
}
