package org.perftrack.server.changepoint;

import java.util.List;

/**
 * What the model says of one segment.
 *
 * @param claims the steps it claims, then the candidates it is unsure of ({@link Claim#claimed}), by version
 * @param stepMass P(a step starts at version k), k = 0 .. n-1 (0 at k = 0: the first version has no before)
 * @param noStep P(no step in the segment)
 * @param twoSteps P(two steps)
 */
public record Posterior(List<Claim> claims, double[] stepMass, double noStep, double twoSteps) {

  /** P(at least one step in the segment). */
  public double anyStep() {
    return 1 - noStep;
  }

  /** The probability of the best candidate claim (0 when there is none): with {@link #anyStep} how unsure it is. */
  public double best() {
    return claims.stream().mapToDouble(Claim::probability).max().orElse(0);
  }

  /** The claims that reach the claim probability. */
  public List<Claim> claimed() {
    return claims.stream().filter(Claim::claimed).toList();
  }

  /** Whether the lab should settle it: the best candidate's or any step's probability strictly inside (low, high). */
  public boolean unsure(double low, double high) {
    return best() > low && best() < high || anyStep() > low && anyStep() < high;
  }
}
