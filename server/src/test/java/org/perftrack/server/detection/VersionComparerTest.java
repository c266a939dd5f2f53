package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

class VersionComparerTest {
  private final VersionComparer comparer = new VersionComparer();

  @Test
  void callsWrite64bARegressionBetweenTheTwoVersions() {
    ComparisonResult r = comparer.compare(new Comparison(new double[] {18.1, 17.9, 18.0, 18.2, 18.0},
        new double[] {48.2, 47.9, 48.4, 48.0, 48.1}, false, Direction.LOWER_IS_BETTER, 0.02, Double.NaN));

    assertThat(r.verdict()).isEqualTo(Verdict.REGRESSION);
    assertThat(r.ratio()).isCloseTo(2.67, within(0.02));
    assertThat(r.pValue()).isLessThan(1e-6);
  }

  @Test
  void identicalDistributionsAreUnchanged() {
    ComparisonResult r = comparer.compare(new Comparison(new double[] {10.0, 10.2, 9.9, 10.1, 10.0},
        new double[] {10.1, 9.9, 10.0, 10.2, 9.95}, false, Direction.LOWER_IS_BETTER, 0.02, Double.NaN));

    assertThat(r.verdict()).isEqualTo(Verdict.UNCHANGED);
  }

  @Test
  void pairingWithinOneBatchCancelsTheSessionDrift() {
    double[] base = {100, 110, 95, 120, 105};
    double[] head = {103, 113.3, 97.9, 123.5, 108.2};
    Comparison unpaired = new Comparison(base, head, false, Direction.LOWER_IS_BETTER, 0.02, Double.NaN);
    Comparison paired = new Comparison(base, head, true, Direction.LOWER_IS_BETTER, 0.02, Double.NaN);

    assertThat(comparer.compare(unpaired).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(comparer.compare(paired).verdict()).isEqualTo(Verdict.REGRESSION);
  }

  @Test
  void sessionNoiseFromHistoryKeepsASmallDifferenceFromBeingARegression() {
    double[] base = {10.0, 10.01, 9.99, 10.0, 10.0};
    double[] head = {10.5, 10.51, 10.49, 10.5, 10.5};

    assertThat(comparer.compare(new Comparison(base, head, false, Direction.LOWER_IS_BETTER, 0.02, Double.NaN))
        .verdict()).isEqualTo(Verdict.REGRESSION);
    assertThat(comparer.compare(new Comparison(base, head, false, Direction.LOWER_IS_BETTER, 0.02, 0.05))
        .verdict()).isEqualTo(Verdict.INCONCLUSIVE);
  }

  @Test
  void aLargeChangeTooNoisyToJudgeIsInconclusiveNotUnchanged() {
    ComparisonResult r = comparer.compare(new Comparison(new double[] {10, 30, 5, 25},
        new double[] {2, 12, 4, 9}, false, Direction.LOWER_IS_BETTER, 0.02, Double.NaN));

    assertThat(r.ratio()).isLessThan(0.6);
    assertThat(r.pValue()).isGreaterThan(0.05);
    assertThat(r.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    assertThat(r.verdict().wire()).isEqualTo("inconclusive");
  }

  @Test
  void higherIsBetterDropIsARegressionAndOneSampleIsInsufficient() {
    List<ComparisonResult> rows = comparer.compareAll(List.of(
        new Comparison(new double[] {150, 151, 149}, new double[] {55, 56, 54}, false,
            Direction.HIGHER_IS_BETTER, 0.02, Double.NaN),
        new Comparison(new double[] {150}, new double[] {55, 56}, false, Direction.HIGHER_IS_BETTER, 0.02,
            Double.NaN)));

    assertThat(rows).extracting(ComparisonResult::verdict)
        .containsExactly(Verdict.REGRESSION, Verdict.INSUFFICIENT_DATA);
    assertThat(rows.get(0).ratio()).isLessThan(1);
  }

  @Test
  void aZeroSampleIsTestedOnTheSamplesThemselvesNotCalledNotEnoughData() {
    // a count per op that did not happen in one run: 0 has no log, the ratio is still ×20 and clear
    ComparisonResult up = comparer.compare(new Comparison(new double[] {0, 10, 11, 9, 12},
        new double[] {180, 175, 190, 185, 178}, false, Direction.LOWER_IS_BETTER, 0.02, 0.05));
    ComparisonResult same = comparer.compare(new Comparison(new double[] {0, 1, 0, 1},
        new double[] {1, 0, 1, 0}, false, Direction.LOWER_IS_BETTER, 0.02, Double.NaN));
    ComparisonResult none = comparer.compare(new Comparison(new double[] {0, 0, 0},
        new double[] {0, 0, 0}, false, Direction.LOWER_IS_BETTER, 0.02, Double.NaN));

    assertThat(up.ratio()).isGreaterThan(10);
    assertThat(up.pValue()).isLessThan(0.001);
    assertThat(up.verdict()).as("×%.1f with a zero sample", up.ratio()).isEqualTo(Verdict.REGRESSION);
    assertThat(same.verdict()).isEqualTo(Verdict.UNCHANGED);
    assertThat(none.verdict()).as("0 before and after").isEqualTo(Verdict.UNCHANGED);
  }
}
