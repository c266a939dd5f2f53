package org.perftrack.server.changepoint;

/**
 * A step the model names: it starts at one of the versions {@code first..last} (indices into the segment), most
 * likely at {@code likeliest}.
 *
 * @param up whether the level rises (what that means, a regression or an improvement, is the caller's)
 * @param ratio the new level over the old one (posterior mean of the log ratio at {@code likeliest})
 * @param probability P(a step of at least min-change this way inside the claim) / (that + P(no step inside))
 * @param claimed whether {@code probability} reaches the claim probability (else a candidate: the model is unsure)
 */
public record Claim(int first, int last, int likeliest, boolean up, double ratio, double probability,
    boolean claimed) {

  public int width() {
    return last - first + 1;
  }
}
