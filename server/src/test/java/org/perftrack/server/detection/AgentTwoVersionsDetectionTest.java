package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The first thing a user does: run the agent on two versions and expect the obvious regressions. Only
 * two versions means no history to measure between-session noise from, so the test rests on the samples.
 */
class AgentTwoVersionsDetectionTest {
  private final Detector detector = new Detector();

  /** Every time-per-op series of the agent's run, detected together as the upload of the second version does. */
  private Map<String, List<Step>> timePerOpSteps() {
    List<AgentTwoVersions.Measured> timing = AgentTwoVersions.load().stream()
        .filter(m -> m.metric().equals("time-per-op")).toList();
    List<SeriesUpdate> updates = timing.stream().map(m -> new SeriesUpdate(new SeriesHistory(m.parsedDirection(),
        m.samples().entrySet().stream().map(e -> VersionPoint.of(e.getKey(), e.getValue())).toList()),
        AgentTwoVersions.HEAD, DetectionSettings.DEFAULTS)).toList();
    List<DetectionResult> results = detector.detectRun(updates);
    return java.util.stream.IntStream.range(0, timing.size()).boxed()
        .collect(Collectors.toMap(i -> timing.get(i).benchmark(), i -> results.get(i).steps()));
  }

  @Test
  void flagsTheThreeObviousSlowdownsOfTwoAgentVersionsOnALoadedMachine() {
    Map<String, List<Step>> steps = timePerOpSteps();

    // Levels are trimmed means (middle three of five): 1.5.24-2's write-64b kept two load outliers
    // (22.4 and 36.3 µs), so its ratio is 13.96 / 0.573 = 24.4 where the medians alone say 19.
    assertThat(steps.get("write-64b")).singleElement().satisfies(s -> assertRegression(s, 24.4, 0.5));
    assertThat(steps.get("read-64b")).singleElement().satisfies(s -> assertRegression(s, 18.2, 0.5));
    assertThat(steps.get("sigprocmask")).singleElement().satisfies(s -> assertRegression(s, 55.1, 0.5));
  }

  @Test
  void leavesTheUnchangedBenchmarksOfTwoAgentVersionsAlone() {
    Map<String, List<Step>> steps = timePerOpSteps();

    assertThat(steps.get("null-call")).isEmpty();
    assertThat(steps.get("fork")).isEmpty();
  }

  private static void assertRegression(Step s, double ratio, double tolerance) {
    assertThat(s.kind()).isEqualTo(Regression.Kind.REGRESSION);
    assertThat(s.baselineVersion()).isEqualTo(AgentTwoVersions.BASE);
    assertThat(s.version()).isEqualTo(AgentTwoVersions.HEAD);
    assertThat(s.ratio()).isCloseTo(ratio, within(tolerance));
    assertThat(s.pValue()).isLessThan(Detector.MAX_P);
  }
}
