package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The error a pooled step is judged by: the segment's own spread, pooled with the versions' within-run errors only
 * where the two agree.
 */
class PooledScanTest {
  private static final int VERSIONS = 30;

  @Test
  void whereSessionsAddNothingTheWithinRunErrorsAddTheirDegreesOfFreedom() {
    Levels levels = levels(0.08, 0, i -> 1.0, 3);
    double sse = PooledScan.LevelError.of(sse(levels.x()), 0, VERSIONS, levels.within(), 0).df();

    assertThat(sse).isGreaterThan(VERSIONS - 2 + 20);
  }

  @Test
  void whereSessionsDifferTheVersionsSpreadAloneIsTheError() {
    // sessions scatter by 6 %, three times the within-run error of the mean of five 5 % samples
    Levels levels = levels(0.05, 0.06, i -> 1.0, 3);
    PooledScan.LevelError error = PooledScan.LevelError.of(sse(levels.x()), 0, VERSIONS, levels.within(), 0);

    assertThat(error.df()).isEqualTo(VERSIONS - 2);
    assertThat(error.sd()).isGreaterThan(0.04);
  }

  @Test
  void aSevenPercentStepInEightPercentSampleNoiseIsFoundOnItsSegmentAndPlacedWithinItsSuspects() {
    Levels levels = levels(0.08, 0.005, i -> i >= 12 ? 1.07 : 1.0, 30);
    double floor = PooledScan.WITHIN_FLOOR * levels.pooledWithinSe();

    PooledScan.Found found = PooledScan.find(levels.x(), 0, VERSIONS, Math.log(1.02), floor, levels.within());
    // the same versions judged on their own spread alone (28 degrees of freedom) are not sure enough
    PooledScan.Found alone = PooledScan.find(levels.x(), 0, VERSIONS, Math.log(1.02), floor,
        new PooledScan.Within(new double[VERSIONS], 0));

    assertThat(found).isNotNull();
    assertThat(found.p()).isLessThan(2e-4);
    assertThat(found.suspects().first()).isLessThanOrEqualTo(12);
    assertThat(found.suspects().last()).isGreaterThanOrEqualTo(12);
    assertThat(alone.p()).isGreaterThan(2e-4);
  }

  @Test
  void noiseAloneIsRarelyAStepAtTheCeiling() {
    int steps = 0;
    for (long seed = 1; seed <= 400; seed++) {
      Levels levels = levels(0.08, 0.005, i -> 1.0, seed);
      double floor = PooledScan.WITHIN_FLOOR * levels.pooledWithinSe();
      PooledScan.Found f = PooledScan.find(levels.x(), 0, VERSIONS, Math.log(1.02), floor, levels.within());
      steps += f != null && f.p() <= Detector.POOLED_MAX_P ? 1 : 0;
    }
    assertThat(steps).isLessThanOrEqualTo(2);
  }

  @Test
  void aSlowDriftIsRarelyAStepAndAStepOnTopOfItStillIs() {
    int drifts = 0;
    int steps = 0;
    for (long seed = 1; seed <= 400; seed++) {
      // 0.3 % per version, as a machine that slowly warms or fills up; samples 1 %, sessions 0.5 %
      Levels drift = levels(0.01, 0.005, i -> Math.exp(0.003 * i), seed);
      double floor = PooledScan.WITHIN_FLOOR * drift.pooledWithinSe();
      PooledScan.Found f = PooledScan.find(drift.x(), 0, VERSIONS, Math.log(1.02), floor, drift.within());
      drifts += f != null && f.p() <= Detector.POOLED_MAX_P ? 1 : 0;
      Levels step = levels(0.01, 0.005, i -> Math.exp(0.003 * i) * (i >= 15 ? 1.05 : 1), seed);
      PooledScan.Found g = PooledScan.find(step.x(), 0, VERSIONS, Math.log(1.02), floor, step.within());
      steps += g != null && g.p() <= Detector.POOLED_MAX_P && g.suspects().first() <= 15
          && g.suspects().last() >= 15 ? 1 : 0;
    }
    assertThat(drifts).isLessThanOrEqualTo(4);
    assertThat(steps).isGreaterThanOrEqualTo(240);
  }

  @Test
  void oneLineFitsADriftBetterThanAStepAndAStepBetterThanALine() {
    double[] drift = new double[VERSIONS];
    double[] step = new double[VERSIONS];
    for (int i = 0; i < VERSIONS; i++) {
      drift[i] = 0.003 * i;
      step[i] = i >= 15 ? 0.05 : 0;
    }
    assertThat(PooledScan.lineSse(drift, 0, VERSIONS)).isLessThan(1e-12);
    assertThat(PooledScan.lineSse(step, 0, VERSIONS)).isGreaterThan(0.2 * sse(step));
  }

  private interface Level {
    double at(int version);
  }

  /** Five gaussian samples of spread {@code cv} per version, each version's session off by {@code sessionCv}. */
  private static Levels levels(double cv, double sessionCv, Level level, long seed) {
    Random random = new Random(seed);
    List<VersionPoint> points = new ArrayList<>();
    for (int v = 0; v < VERSIONS; v++) {
      double session = Math.exp(sessionCv * random.nextGaussian());
      double[] samples = new double[5];
      for (int s = 0; s < samples.length; s++) {
        samples[s] = 100 * level.at(v) * session * (1 + cv * random.nextGaussian());
      }
      points.add(VersionPoint.of("1." + v, samples));
    }
    return Levels.of(points);
  }

  private static double sse(double[] x) {
    double mean = 0;
    for (double v : x) {
      mean += v / x.length;
    }
    double sse = 0;
    for (double v : x) {
      sse += (v - mean) * (v - mean);
    }
    return sse;
  }
}
