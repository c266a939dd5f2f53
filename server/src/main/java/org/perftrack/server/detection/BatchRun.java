package org.perftrack.server.detection;

import java.util.Objects;

/**
 * One run measured interleaved with runs of other versions in the same session ({@code batch}): its raw
 * samples in round order, so that sample r of two versions of one batch were taken side by side.
 */
public record BatchRun(String batch, String version, double[] samples) {
  public BatchRun {
    Objects.requireNonNull(batch, "batch");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(samples, "samples");
  }
}
