package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class NoiseModelTest {

  private static NoiseModel noise(VersionPoint... points) {
    return NoiseModel.estimate(Levels.of(List.of(points)));
  }

  @Test
  void withoutHistoryTakesItsDegreesOfFreedomFromTheSamples() {
    NoiseModel threeSamples = noise(VersionPoint.of("1", 10, 10.2, 9.9), VersionPoint.of("2", 10.1, 10, 9.8));
    NoiseModel fiveSamples = noise(VersionPoint.of("1", 10, 10.2, 9.9, 10.1, 9.8), VersionPoint.of("2", 10.1, 10, 9.8, 10.3, 9.9));

    assertThat(threeSamples.df()).isEqualTo(4.0);
    assertThat(fiveSamples.df()).as("capped at the df of a five-version history").isEqualTo(NoiseModel.HISTORY_DF);
  }

  @Test
  void withoutHistoryOrSamplesTakesTheOneValuePriorNotTheFloor() {
    NoiseModel single = noise(VersionPoint.of("1", 10), VersionPoint.of("2", 11));

    assertThat(single.df()).isEqualTo(NoiseModel.PRIOR_WEIGHT - 1);
    assertThat(single.sigma()).as("single values scatter; 0.5 % made every 2 % wobble a step")
        .isCloseTo(NoiseModel.ONE_VALUE_PRIOR, within(1e-12));
  }

  @Test
  void neverGrowsMoreLenientThroughDegreesOfFreedomWhenHistoryArrives() {
    VersionPoint[] points = new VersionPoint[6];
    for (int i = 0; i < points.length; i++) {
      points[i] = VersionPoint.of(String.valueOf(i), 10, 10.2, 9.9, 10.1, 9.8);
    }
    double previous = 0;
    for (int n = 2; n <= points.length; n++) {
      double df = noise(java.util.Arrays.copyOf(points, n)).df();
      assertThat(df).as("df with %d versions", n).isGreaterThanOrEqualTo(previous);
      previous = df;
    }
  }
}
