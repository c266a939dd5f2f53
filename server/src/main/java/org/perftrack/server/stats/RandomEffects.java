package org.perftrack.server.stats;

/**
 * Combines independent estimates of one effect (here: per-batch log ratios) by inverse variance. With
 * two or more, the between-estimate variance tau² is the DerSimonian-Laird moment estimate, so batches
 * that disagree more than their own errors allow widen the combined error instead of being averaged
 * into false certainty; with one, it is that estimate.
 */
public record RandomEffects(double estimate, double se, double tau2, int count) {

  public static RandomEffects combine(double[] estimates, double[] ses) {
    int k = estimates.length;
    if (k == 0 || k != ses.length) {
      throw new IllegalArgumentException("need as many standard errors as estimates, at least one");
    }
    double sw = 0;
    double swy = 0;
    double sw2 = 0;
    for (int i = 0; i < k; i++) {
      double w = 1 / (ses[i] * ses[i]);
      sw += w;
      swy += w * estimates[i];
      sw2 += w * w;
    }
    double fixed = swy / sw;
    double q = 0;
    for (int i = 0; i < k; i++) {
      double e = estimates[i] - fixed;
      q += e * e / (ses[i] * ses[i]);
    }
    double tau2 = k < 2 ? 0 : Math.max(0, (q - (k - 1)) / (sw - sw2 / sw));
    double rw = 0;
    double rwy = 0;
    for (int i = 0; i < k; i++) {
      double w = 1 / (ses[i] * ses[i] + tau2);
      rw += w;
      rwy += w * estimates[i];
    }
    return new RandomEffects(rwy / rw, Math.sqrt(1 / rw), tau2, k);
  }
}
