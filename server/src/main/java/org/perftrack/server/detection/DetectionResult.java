package org.perftrack.server.detection;

import java.util.List;
import java.util.Map;

/**
 * The steps found among the versions whose judgement the new data could change: those from
 * {@code fromVersion} to {@code toVersion} (inclusive, version order). Recorded regressions whose
 * version lies in that range are re-judged by the {@link Reconciler}; the others are left alone.
 * {@code levels} gives each version's typical value, {@code noise} the between-session noise (log),
 * {@code window} and {@code minEffect} (log) the scan's settings: what a withdrawal is judged on.
 * {@code withinSe} is each version's within-session error (log), from which the noise as it was known
 * up to a version can be estimated again; {@code interleaved} the evidence of interleaved sessions at
 * the versions that have it (a version measured next to its predecessor). {@code waiting} holds a change at the
 * newest version that is not (yet) a step, too small or too weak to be reported by the upload that brought it,
 * which the next build will confirm or not.
 */
public record DetectionResult(List<Step> steps, String fromVersion, String toVersion,
               List<String> versions, double[] levels, double noise, int window, double minEffect,
               double[] withinSe, Map<String, Interleaved> interleaved, List<Step> waiting) {

  public DetectionResult(List<Step> steps, String fromVersion, String toVersion, List<String> versions,
      double[] levels, double noise, int window, double minEffect, double[] withinSe,
      Map<String, Interleaved> interleaved) {
    this(steps, fromVersion, toVersion, versions, levels, noise, window, minEffect, withinSe, interleaved, List.of());
  }

  /**
   * What interleaved sessions say about the change at one version: combined log shift round by round,
   * its p-value, and whether the samples are cleanly separated.
   */
  public record Interleaved(double shift, double p, boolean clean) {
  }

  public static DetectionResult empty() {
    return new DetectionResult(List.of(), null, null, List.of(), new double[0], Double.NaN, 0, 0, new double[0],
        Map.of());
  }

  public DetectionResult {
    steps = List.copyOf(steps);
    versions = List.copyOf(versions);
    interleaved = Map.copyOf(interleaved);
    waiting = List.copyOf(waiting);
  }

  public DetectionResult withSteps(List<Step> kept) {
    return new DetectionResult(kept, fromVersion, toVersion, versions, levels, noise, window, minEffect, withinSe,
        interleaved, waiting);
  }

  public DetectionResult withWaiting(List<Step> changes) {
    return new DetectionResult(steps, fromVersion, toVersion, versions, levels, noise, window, minEffect, withinSe,
        interleaved, changes);
  }

  public boolean isEmpty() {
    return fromVersion == null;
  }
}
