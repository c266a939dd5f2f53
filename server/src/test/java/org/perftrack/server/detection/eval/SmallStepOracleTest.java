package org.perftrack.server.detection.eval;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.perftrack.server.stats.MaxSplitT;

/** The oracle's threshold at the false-alert target is the tail the detector's own max-t bound gives. */
class SmallStepOracleTest {

  @Test
  void thresholdAtFiveFalseAlertsPerThousandSeriesMatchesTheMaxSplitBound() {
    double t = SmallStepOracle.nullThreshold(30, 0.005);
    // an independent simulation (numpy, 200,000 series of 30 normals, splits 4..26) gives 4.04
    assertThat(t).isBetween(3.95, 4.13);
    // the Hunter–Worsley bound the pooled scan judges with is an upper bound close to the simulated tail
    assertThat(MaxSplitT.p(t, 28, 30, 4)).isBetween(0.005, 0.0065);
  }
}
