package org.perftrack.server.detection.eval;

import java.util.Random;

/**
 * The sample noise of a generated series. {@code sampleCv} is the rough relative spread of one
 * sample that a trimmed mean of five still sees (used only to keep injected steps detectable).
 */
enum NoiseFamily {
  GAUSSIAN_0_5(0.005), GAUSSIAN_1(0.01), GAUSSIAN_2(0.02), GAUSSIAN_5(0.05),
  LOGNORMAL_1(0.01), LOGNORMAL_3(0.03),
  HEAVY_TAILS(0.017), BIMODAL(0.035), OUTLIER_SAMPLES(0.012), SESSION_SHIFTS(0.01), SLOW_DRIFT(0.01),
  /** Steps of 5–12 % in samples scattered by 8 % (gaussian) or 5 % (log-normal), with ten or more versions after. */
  SMALL_STEPS_GAUSSIAN_8(0.08), SMALL_STEPS_LOGNORMAL_5(0.05),
  /** One value per version (a CI job running each benchmark once, a summary-only tool): 1–4 % between versions. */
  ONE_VALUE(0.02);

  final double sampleCv;

  boolean smallSteps() {
    return this == SMALL_STEPS_GAUSSIAN_8 || this == SMALL_STEPS_LOGNORMAL_5;
  }

  int samples(int usual) {
    return this == ONE_VALUE ? 1 : usual;
  }

  NoiseFamily(double sampleCv) {
    this.sampleCv = sampleCv;
  }

  /** Relative deviation of one sample (multiplicative factor) within a session. */
  double sample(Random r) {
    return switch (this) {
      case GAUSSIAN_0_5, GAUSSIAN_1, GAUSSIAN_2, GAUSSIAN_5 -> Math.max(0.05, 1 + sampleCv * r.nextGaussian());
      case LOGNORMAL_1, LOGNORMAL_3, SMALL_STEPS_LOGNORMAL_5 -> Math.exp(sampleCv * r.nextGaussian());
      case SMALL_STEPS_GAUSSIAN_8 -> Math.max(0.05, 1 + sampleCv * r.nextGaussian());
      case ONE_VALUE -> 1;
      case HEAVY_TAILS -> Math.max(0.05, 1 + 0.01 * studentT3(r));
      case BIMODAL -> (r.nextDouble() < 0.3 ? 1.08 : 1.0) * (1 + 0.01 * r.nextGaussian());
      case OUTLIER_SAMPLES -> (r.nextDouble() < 0.05 ? 1.5 + 1.5 * r.nextDouble() : 1.0)
          * (1 + 0.01 * r.nextGaussian());
      case SESSION_SHIFTS, SLOW_DRIFT -> 1 + 0.01 * r.nextGaussian();
    };
  }

  /** Factor applied to a whole session (run) of version {@code v}: the family's own session behaviour. */
  double session(Random r, int v, double driftPerVersion) {
    return switch (this) {
      case SESSION_SHIFTS -> r.nextDouble() < 0.08 ? 1.05 + 0.25 * r.nextDouble() : 1.0;
      case SLOW_DRIFT -> Math.exp(driftPerVersion * v);
      default -> 1.0;
    };
  }

  private static double studentT3(Random r) {
    double chi = 0;
    for (int i = 0; i < 3; i++) {
      double g = r.nextGaussian();
      chi += g * g;
    }
    return r.nextGaussian() / Math.sqrt(chi / 3);
  }
}
