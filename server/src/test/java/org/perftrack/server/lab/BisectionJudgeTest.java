package org.perftrack.server.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.lab.BisectionJudge.SeriesSamples;
import org.perftrack.server.lab.BisectionJudge.Verdict;

class BisectionJudgeTest {

  private static final List<String> OFFERED = List.of("1.5.19-8", "1.5.19-1", "1.5.19-10", "1.5.19-3", "1.5.19-2",
      "1.5.19-9", "1.5.19-4", "1.5.19-5", "1.5.19-6", "1.5.19-7");

  @Test
  void betweenIsStrictAndInVersionOrderNotNameOrder() {
    assertThat(BisectionJudge.between(OFFERED, "1.5.19-1", "1.5.19-10"))
        .containsExactly("1.5.19-2", "1.5.19-3", "1.5.19-4", "1.5.19-5", "1.5.19-6", "1.5.19-7", "1.5.19-8", "1.5.19-9");
    assertThat(BisectionJudge.between(OFFERED, "1.5.19-5", "1.5.19-6")).isEmpty();
  }

  @Test
  void middlePositionIsNearBaselineGoodNearVersionBadAndInBetweenAmbiguous() {
    double[] b = {10, 10.1, 9.9};
    double[] v = {30, 30.3, 29.7};
    assertThat(BisectionJudge.verdict(BisectionJudge.position(List.of(new SeriesSamples(b, new double[] {10.2, 10}, v)))))
        .isEqualTo(Verdict.GOOD);
    assertThat(BisectionJudge.verdict(BisectionJudge.position(List.of(new SeriesSamples(b, new double[] {29, 31}, v)))))
        .isEqualTo(Verdict.BAD);
    double half = BisectionJudge.position(List.of(new SeriesSamples(b, new double[] {17.4}, v)));
    assertThat(BisectionJudge.verdict(half)).isEqualTo(Verdict.AMBIGUOUS);
    assertThat(BisectionJudge.forced(half)).isEqualTo(Verdict.BAD);
    // a batch that does not show the step at all cannot place the middle
    assertThat(BisectionJudge.verdict(BisectionJudge.position(List.of(new SeriesSamples(b, b, b)))))
        .isEqualTo(Verdict.AMBIGUOUS);
  }

  /** ⌈log₂(k+1)⌉ rounds for k versions in between, wherever the step is. */
  @Test
  void lowerMiddleNeedsAtMostCeilLog2OfKPlusOneRounds() {
    for (int k = 1; k <= 40; k++) {
      List<String> versions = new ArrayList<>();
      for (int i = 0; i <= k + 1; i++) {
        versions.add("1." + i);
      }
      int bound = (int) Math.ceil(Math.log(k + 1) / Math.log(2) - 1e-9);
      for (int firstBad = 1; firstBad <= k + 1; firstBad++) {
        String good = versions.get(0);
        String bad = versions.get(k + 1);
        int rounds = 0;
        List<String> between;
        while (!(between = BisectionJudge.between(versions, good, bad)).isEmpty()) {
          String middle = BisectionJudge.middle(between);
          if (versions.indexOf(middle) >= firstBad) {
            bad = middle;
          } else {
            good = middle;
          }
          rounds++;
        }
        assertThat(bad).isEqualTo(versions.get(firstBad));
        assertThat(rounds).as("k=%d, first bad %d", k, firstBad).isLessThanOrEqualTo(bound);
      }
    }
  }
}
