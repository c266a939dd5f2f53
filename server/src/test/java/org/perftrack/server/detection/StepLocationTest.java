package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** Whether the levels place a step at the version a scan named, or a neighbour could as well be its place. */
class StepLocationTest {
  private static final double NOISE = 0.01;

  @Test
  void aStepOfManyTimesTheNoiseIsPlacedAtItsVersionAndNotAtItsNeighbours() {
    double[] x = levels(10, 0.08, 0, 1);

    assertThat(StepLocation.share(x, 10, List.of(), NOISE, 12)).isGreaterThan(0.99);
    assertThat(StepLocation.placed(x, 10, List.of(), NOISE, 12)).isTrue();
    assertThat(StepLocation.placed(x, 9, List.of(), NOISE, 12)).isFalse();
    assertThat(StepLocation.placed(x, 11, List.of(), NOISE, 12)).isFalse();
  }

  /** The version at the step sits halfway between the levels: 10 and 11 are equally likely places. */
  @Test
  void aVersionHalfwayBetweenTheLevelsLeavesThePlaceOpen() {
    double[] x = levels(11, 0.02, 0, 1);
    x[10] = 0.01;

    double at10 = StepLocation.share(x, 10, List.of(), NOISE, 12);
    double at11 = StepLocation.share(x, 11, List.of(), NOISE, 12);

    assertThat(at10).isBetween(0.3, 0.7);
    assertThat(at11).isBetween(0.3, 0.7);
    assertThat(StepLocation.placed(x, 10, List.of(), NOISE, 12) && StepLocation.placed(x, 11, List.of(), NOISE, 12))
        .isFalse();
  }

  /** One wild session two versions after the step (×1.5) does not pull the step's place to it. */
  @Test
  void oneWildSessionNearTheStepDoesNotMoveItsPlace() {
    double[] x = levels(10, 0.05, 0.005, 3);
    x[12] += Math.log(1.5);

    assertThat(StepLocation.placed(x, 10, List.of(), NOISE, 12)).isTrue();
  }

  /** A decided step nearby bounds the sides: the levels beyond it do not count for or against the place. */
  @Test
  void theSidesEndAtTheDecidedStepsAroundIt() {
    double[] x = levels(10, 0.05, 0.005, 4);
    for (int i = 13; i < x.length; i++) {
      x[i] += Math.log(3);
    }

    assertThat(StepLocation.placed(x, 10, List.of(13), NOISE, 12)).isTrue();
  }

  /** Log levels of 30 versions: 0 before {@code at}, log(1 + step) from it on, gaussian noise {@code sd}. */
  private static double[] levels(int at, double step, double sd, long seed) {
    Random random = new Random(seed);
    double[] x = new double[30];
    for (int i = 0; i < x.length; i++) {
      x[i] = (i >= at ? Math.log1p(step) : 0) + sd * random.nextGaussian();
    }
    return x;
  }
}
