package org.perftrack.server.detection;

import java.util.List;

/**
 * The steps found among the versions whose judgement the new data could change: those from
 * {@code fromVersion} to {@code toVersion} (inclusive, version order). Recorded regressions whose
 * version lies in that range are re-judged by the {@link Reconciler}; the others are left alone.
 * {@code levels} gives each version's typical value, {@code noise} the between-session noise (log),
 * {@code window} and {@code minEffect} (log) the scan's settings: what a withdrawal is judged on.
 */
public record DetectionResult(List<Step> steps, String fromVersion, String toVersion,
               List<String> versions, double[] levels, double noise, int window, double minEffect) {

  public static DetectionResult empty() {
    return new DetectionResult(List.of(), null, null, List.of(), new double[0], Double.NaN, 0, 0);
  }

  public DetectionResult {
    steps = List.copyOf(steps);
    versions = List.copyOf(versions);
  }

  public DetectionResult withSteps(List<Step> kept) {
    return new DetectionResult(kept, fromVersion, toVersion, versions, levels, noise, window, minEffect);
  }

  public boolean isEmpty() {
    return fromVersion == null;
  }
}
