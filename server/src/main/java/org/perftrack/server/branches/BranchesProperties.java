package org.perftrack.server.branches;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/** @param pruneAfter a branch without a run for this long is deleted with its runs (a merged pull request's) */
@ConfigurationProperties("perftrack.branches")
@Validated
record BranchesProperties(@DefaultValue("90d") @NotNull Duration pruneAfter) {

  BranchesProperties {
    if (pruneAfter != null && (pruneAfter.isNegative() || pruneAfter.isZero())) {
      throw new IllegalArgumentException("perftrack.branches.prune-after must be positive, got " + pruneAfter);
    }
  }
}
