package org.perftrack.server.detection;

/**
 * Base and head samples of one metric. {@code paired} when both were measured interleaved in one
 * batch (sample i of base next to sample i of head), so that session effects cancel.
 * {@code sessionNoise} is the series' between-session noise in log units (NaN when unknown): sessions
 * differ more than samples within one, so an unpaired comparison must not be judged on samples alone.
 */
public record Comparison(double[] base, double[] head, boolean paired, Direction direction,
             double minChange, double sessionNoise) {
}
