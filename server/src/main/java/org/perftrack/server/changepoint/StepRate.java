package org.perftrack.server.changepoint;

/**
 * The prior probability that a step starts at a given version: the mean of a Beta(a, b) over a product's step rate,
 * updated with its decided steps. With no history it is 1 in 40 ({@link #PRIOR_A}, {@link #PRIOR_B}).
 */
public final class StepRate {
  public static final double PRIOR_A = 1;
  public static final double PRIOR_B = 39;

  private StepRate() {
  }

  /** The rate after {@code steps} decided steps in {@code versions} judged versions of the product's series. */
  public static double of(long steps, long versions) {
    if (steps < 0 || versions < steps) {
      throw new IllegalArgumentException("steps " + steps + " of " + versions + " versions");
    }
    return (PRIOR_A + steps) / (PRIOR_A + PRIOR_B + versions);
  }

  /** A product with no history. */
  public static double initial() {
    return of(0, 0);
  }
}
