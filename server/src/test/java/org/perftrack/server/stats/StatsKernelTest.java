package org.perftrack.server.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class StatsKernelTest {

  @Test
  void pairedRoundsCancelABurstThatSlowedOneWholeRound() {
    double[] before = {10, 10.2, 31, 9.9, 10.1};
    double[] after = {20.1, 20.3, 61, 19.8, 20.0};

    PairedRounds paired = PairedRounds.of(before, after);

    assertThat(Math.exp(paired.logRatio())).isCloseTo(2.0, within(0.02));
    assertThat(paired.logRatio() / paired.se()).isGreaterThan(50);
    assertThat(Math.exp(paired.minRound())).isGreaterThan(1.9);
    assertThat(PairedRounds.of(new double[] {1, 2}, new double[] {1, 2})).isNull();
  }

  @Test
  void pairedRoundsOfATwoModeBenchmarkKeepTheirSpread() {
    double[] before = {10, 10, 10, 13, 10};
    double[] after = {13, 13, 13, 10, 13};

    PairedRounds paired = PairedRounds.of(before, after);

    assertThat(paired.logRatio() / paired.se()).as("winsorizing must not make two modes look exact").isLessThan(3);
  }

  @Test
  void randomEffectsWidenTheErrorWhenBatchesDisagree() {
    RandomEffects one = RandomEffects.combine(new double[] {0.5}, new double[] {0.1});
    assertThat(one.estimate()).isEqualTo(0.5);
    assertThat(one.se()).isEqualTo(0.1);

    RandomEffects agree = RandomEffects.combine(new double[] {0.5, 0.52}, new double[] {0.1, 0.1});
    assertThat(agree.tau2()).isZero();
    assertThat(agree.se()).isCloseTo(0.1 / Math.sqrt(2), within(1e-12));

    RandomEffects disagree = RandomEffects.combine(new double[] {0.1, 1.5}, new double[] {0.05, 0.05});
    assertThat(disagree.tau2()).isGreaterThan(0.5);
    assertThat(disagree.se()).isGreaterThan(0.4);
    assertThat(disagree.estimate()).isCloseTo(0.8, within(1e-9));
  }

  @Test
  void separationNeedsAWideGapAndTightGroups() {
    double[] old = {1.00, 1.02, 0.99, 1.01, 1.03};
    double[] slow = {2.00, 2.05, 1.98, 2.02, 2.01};
    assertThat(RankTest.separation(old, slow, 0)).isCloseTo(Math.log(1.98 / 1.03), within(1e-12));
    assertThat(RankTest.separation(slow, old, 0)).isCloseTo(-Math.log(1.98 / 1.03), within(1e-12));

    double[] oldWithBurst = {1.00, 1.02, 4.1, 1.01, 1.03};
    assertThat(RankTest.separation(oldWithBurst, slow, 0)).as("overlap").isZero();
    assertThat(RankTest.separation(oldWithBurst, slow, 1)).as("one wild sample set aside").isGreaterThan(0.6);

    double[] scattered = {0.99, 2.1, 3.4, 4.6, 2.8};
    assertThat(RankTest.separation(old, scattered, 1)).as("wild samples scatter").isZero();
    assertThat(RankTest.separation(old, new double[] {2, 2, 2, 2}, 0)).as("too few").isZero();
  }

  @Test
  void mannWhitneyIsExactForSmallSamples() {
    double[] a = {1, 2, 3, 4, 5};
    double[] b = {6, 7, 8, 9, 10};
    assertThat(RankTest.mannWhitneyP(a, b)).isCloseTo(2.0 / 252, within(1e-12));
    assertThat(RankTest.mannWhitneyP(b, a)).isCloseTo(2.0 / 252, within(1e-12));
    // one crossing: U = 1, P(U <= 1) = 2 / 252 on each side
    assertThat(RankTest.mannWhitneyP(new double[] {1, 2, 3, 4, 6.5}, new double[] {6, 7, 8, 9, 10}))
        .isCloseTo(4.0 / 252, within(1e-12));
    assertThat(RankTest.mannWhitneyP(new double[] {1, 3, 5, 7, 9}, new double[] {2, 4, 6, 8, 10}))
        .isGreaterThan(0.5);
  }
}
