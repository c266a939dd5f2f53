package org.perftrack.server.detection;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One metric measured in both versions on one machine, judged (GET /api/v1/compare's row, and the
 * compare page's). {@code ratio} is head / base, a number or null: null when the base is 0, and then
 * {@link #fromZero()} says so (the verdict still says which way the change went). {@code pValue} null when not computable; {@code paired} when both were measured
 * interleaved in one batch. {@code detection}: what detection says of a step between the two versions (null when
 * nothing: no step stored and the pair unchanged). {@code suspects}: where that stored step starts when it may start
 * at any of a run of versions (the largest step when several lie between); null when it is placed exactly or none
 * is stored.
 */
public record ComparedMetric(String benchmark, String metric, String unit, Direction direction, double baseValue,
    double headValue, double ratio, Double pValue, Verdict verdict, boolean paired,
    @JsonInclude(JsonInclude.Include.NON_NULL) DetectionState detection,
    @JsonInclude(JsonInclude.Include.NON_NULL) Suspects suspects) {

  /** A row with no ranged step between its versions. */
  public ComparedMetric(String benchmark, String metric, String unit, Direction direction, double baseValue,
      double headValue, double ratio, Double pValue, Verdict verdict, boolean paired, DetectionState detection) {
    this(benchmark, metric, unit, direction, baseValue, headValue, ratio, pValue, verdict, paired, detection, null);
  }

  /** The base is 0, so no ratio says how much the head changed: the JSON's {@code ratio} is null beside it. */
  @JsonProperty("fromZero")
  public boolean fromZero() {
    return baseValue == 0;
  }

  /**
   * A stored step's place as a regression carries it: {@code version} the likeliest, {@code firstSuspect} to
   * {@code lastSuspect} (version order) the versions it may start at.
   */
  public record Suspects(String version, String firstSuspect, String lastSuspect) {

    /** "between 1.5.20-1 and 1.5.22-1 (most likely 1.5.21-1)", as {@link Regression#place()} says it. */
    public String place() {
      return Regression.place(version, firstSuspect, lastSuspect);
    }
  }
}
