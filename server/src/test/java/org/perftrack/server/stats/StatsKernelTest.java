package org.perftrack.server.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class StatsKernelTest {

  @Test
  void aMeanSplitIsThePooledTwoSampleTOfItsShift() {
    MeanSplit split = MeanSplit.of(new double[] {9, 1, 2, 3, 5, 6, 7, 9}, 1, 4, 7);

    assertThat(split.before()).isEqualTo(2);
    assertThat(split.after()).isEqualTo(6);
    assertThat(split.sse()).isEqualTo(4);
    assertThat(split.sd(0)).isEqualTo(1);
    assertThat(split.t(0)).isCloseTo(4 / Math.sqrt(2.0 / 3), within(1e-12));
    assertThat(split.t(2)).as("a floor under the noise").isCloseTo(2 / Math.sqrt(2.0 / 3), within(1e-12));
  }

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
  void fastSideSeparationTrustsOnlyTheFastSamples() {
    double[] old = {1.00, 1.02, 0.99, 1.01, 1.03};
    double[] slow = {2.00, 2.05, 1.98, 2.02, 2.01};
    assertThat(RankEvidence.fastSideSeparation(old, slow, true)).isCloseTo(Math.log(1.98 / 1.00), within(1e-12));
    assertThat(RankEvidence.fastSideSeparation(slow, old, true)).as("an improvement")
        .isCloseTo(-Math.log(1.98 / 1.00), within(1e-12));

    double[] slowWithTwoWild = {2.00, 7.9, 1.98, 4.4, 2.01};
    double[] oldWithTwoWild = {1.00, 3.2, 0.99, 1.01, 4.8};
    assertThat(RankEvidence.fastSideSeparation(oldWithTwoWild, slowWithTwoWild, true))
        .as("two wild samples a side neither hide the step").isGreaterThan(Math.log(1.9));
    double[] fourWild = {1.00, 3.2, 2.6, 4.4, 4.8};
    assertThat(RankEvidence.fastSideSeparation(old, fourWild, true)).as("nor make one").isZero();
    assertThat(RankEvidence.fastSideSeparation(fourWild, old, true)).as("either way").isZero();

    double[] bandwidthOld = {100, 101, 99, 40, 100};
    double[] bandwidthHalved = {50, 51, 49, 50, 20};
    assertThat(RankEvidence.fastSideSeparation(bandwidthOld, bandwidthHalved, false))
        .as("higher is faster: slow samples are the low ones").isCloseTo(Math.log(51.0 / 100), within(1e-12));
    assertThat(RankEvidence.fastSideSeparation(old, new double[] {2, 2, 2, 2}, true)).as("too few").isZero();
  }

  @Test
  void mannWhitneyIsExactForSmallSamples() {
    double[] a = {1, 2, 3, 4, 5};
    double[] b = {6, 7, 8, 9, 10};
    assertThat(RankEvidence.mannWhitneyP(a, b)).isCloseTo(2.0 / 252, within(1e-12));
    assertThat(RankEvidence.mannWhitneyP(b, a)).isCloseTo(2.0 / 252, within(1e-12));
    // one crossing: U = 1, P(U <= 1) = 2 / 252 on each side
    assertThat(RankEvidence.mannWhitneyP(new double[] {1, 2, 3, 4, 6.5}, new double[] {6, 7, 8, 9, 10}))
        .isCloseTo(4.0 / 252, within(1e-12));
    assertThat(RankEvidence.mannWhitneyP(new double[] {1, 3, 5, 7, 9}, new double[] {2, 4, 6, 8, 10}))
        .isGreaterThan(0.5);
  }

  @Test
  void benjaminiHochbergRejectsUpToTheLastRankUnderItsLine() {
    // ranks 1..5 at q = 0.05: lines 0.01, 0.02, 0.03, 0.04, 0.05; rank 3 (0.029) is the last under its line
    double[] p = {0.045, 0.001, 0.029, 0.5, 0.019, Double.NaN};

    assertThat(MultipleTesting.benjaminiHochberg(p, 0.05)).containsExactly(false, true, true, false, true, false);
    assertThat(MultipleTesting.benjaminiHochberg(p, new double[] {0.05, 0.05, 0.05, 0.05, 0.05, 0.05}, 5, 0.01))
        .as("a cap stops weaker evidence whatever the rank").containsExactly(false, true, false, false, false, false);
  }

  @Test
  void studentTGivesTheTablesTwoSidedPValues() {
    assertThat(StudentT.twoSidedP(2.776, 4)).isCloseTo(0.05, within(1e-4));
    assertThat(StudentT.twoSidedP(1.96, 1e6)).isCloseTo(0.05, within(1e-3));
    assertThat(StudentT.twoSidedP(0, 3)).isEqualTo(1.0);
  }
}
