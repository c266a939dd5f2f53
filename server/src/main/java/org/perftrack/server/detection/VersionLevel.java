package org.perftrack.server.detection;

import org.perftrack.server.stats.Robust;

/**
 * What detection keeps of one version's samples: {@code level} (trimmed mean), {@code withinSe} (the
 * standard error of log(level) from the samples alone, NaN with fewer than two), whether every
 * sample was positive (a ratio needs it) and {@code count}, the number of samples (0 when unknown),
 * which says how far {@code withinSe} itself can be trusted. Stored per series and version, so that
 * a detection window is read from one index without touching the raw samples.
 */
public record VersionLevel(double level, double withinSe, boolean positive, int count) {
  /**
   * The MAD's standard deviation is a noisier estimate than the sample standard deviation on the few samples of
   * one version; the within-version standard error is widened by this much so that it is not too sure of itself.
   */
  static final double MAD_SE_INFLATION = 1.2;

  public static VersionLevel of(double[] samples) {
    boolean positive = true;
    double[] logs = new double[samples.length];
    for (int i = 0; i < samples.length; i++) {
      positive &= samples[i] > 0 && !Double.isInfinite(samples[i]);
      logs[i] = Math.log(Math.max(samples[i], Double.MIN_NORMAL));
    }
    double se = logs.length < 2 ? Double.NaN : Robust.madSd(logs, 0, logs.length) * MAD_SE_INFLATION
        / Math.sqrt(logs.length);
    return new VersionLevel(Robust.trimmedMean(samples), se, positive, samples.length);
  }

  /** Degrees of freedom {@code withinSe} rests on (n − 1; 0 when it is unknown). */
  int withinDf() {
    return Double.isNaN(withinSe) || count < 2 ? 0 : count - 1;
  }
}
