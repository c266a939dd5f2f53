package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A shared CI runner: one factor per job for all benchmarks of the build (the machine a few percent faster or
 * slower), judged relative to the job's common shift.
 */
class CommonShiftTest {
  private static final int BENCHMARKS = 8;
  /** The runner of each job; the newest job ran on a fast runner (×0.74). */
  private static final double[] RUNNER = {1.0, 1.08, 0.94, 1.06, 0.95, 1.04, 0.93, 1.0, 0.74};

  private final Detector detector = new Detector();
  private final Random random = new Random(3);

  /** The run's series: benchmark {@code m}'s newest build multiplied by {@code newest[m]}. */
  private List<SeriesUpdate> run(double[] newest) {
    List<SeriesUpdate> updates = new ArrayList<>();
    for (int m = 0; m < BENCHMARKS; m++) {
      List<VersionPoint> points = new ArrayList<>();
      for (int b = 0; b < RUNNER.length; b++) {
        double level = 100 * (m + 1) * RUNNER[b] * (1 + 0.01 * random.nextGaussian())
            * (b == RUNNER.length - 1 ? newest[m] : 1);
        double[] samples = new double[10];
        for (int r = 0; r < samples.length; r++) {
          samples[r] = level * (1 + 0.01 * random.nextGaussian());
        }
        points.add(VersionPoint.of("1.0." + b, samples));
      }
      updates.add(new SeriesUpdate(new SeriesHistory(Direction.LOWER_IS_BETTER, points), "1.0." + (RUNNER.length - 1),
          DetectionSettings.DEFAULTS));
    }
    return updates;
  }

  private static double[] all(double factor) {
    double[] f = new double[BENCHMARKS];
    java.util.Arrays.fill(f, factor);
    return f;
  }

  @Test
  void aDoubledBenchmarkOnAFasterRunnerIsReportedByItsOwnBuild() {
    double[] newest = all(1);
    newest[2] = 2.0;
    List<SeriesUpdate> updates = run(newest);

    List<DetectionResult> results = detector.detectRun(updates);

    assertThat(results.get(2).steps()).singleElement().satisfies(step -> {
      assertThat(step.version()).isEqualTo("1.0.8");
      assertThat(step.kind()).isEqualTo(Regression.Kind.REGRESSION);
      assertThat(step.confirmed()).isFalse();
      assertThat(step.ratio()).as("the raw levels are recorded: the runner made it ×1.48").isLessThan(1.5);
      assertThat(step.evidence()).contains("shift all benchmarks of the run shared");
    });
    for (int m = 0; m < BENCHMARKS; m++) {
      if (m != 2) {
        assertThat(results.get(m).steps()).as("benchmark %d", m).isEmpty();
      }
    }
    assertThat(detector.detectRun(List.of(updates.get(2))).get(0).steps())
        .as("judged alone, ×1.48 at the newest version is below the 50 % a first bad build needs").isEmpty();
  }

  @Test
  void aChangeEveryBenchmarkMadeTogetherIsNotTurnedIntoImprovementsOfTheOthers() {
    double[] newest = all(1 / 0.74 * 2.2);
    newest[0] = 1 / 0.74;
    newest[1] = 1 / 0.74;
    newest[2] = 1 / 0.74;

    List<DetectionResult> results = detector.detectRun(run(newest));

    for (int m = 0; m < 3; m++) {
      assertThat(results.get(m).steps()).as("benchmark %d did not change", m).isEmpty();
    }
    for (int m = 3; m < BENCHMARKS; m++) {
      assertThat(results.get(m).steps()).as("benchmark %d", m).isNotEmpty().allSatisfy(step ->
          assertThat(step.kind()).isEqualTo(Regression.Kind.REGRESSION));
    }
  }

  @Test
  void aFasterRunnerAloneIsNoStep() {
    List<DetectionResult> results = detector.detectRun(run(all(1)));

    assertThat(results).allSatisfy(r -> assertThat(r.steps()).isEmpty());
  }
}
