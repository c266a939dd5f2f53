package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.changepoint.Claim;
import org.perftrack.server.changepoint.Posterior;

/** The rule that makes a model's posterior a confirm job: when it is unsure, and which versions are measured again. */
class UnsureClaimsDoubtTest {

  private final UnsureClaims.Doubt doubt = new UnsureClaims.Doubt(0.01, 0.99, 0.03, 8);

  private static Posterior posterior(double bestClaim, double... mass) {
    double any = 0;
    for (double m : mass) {
      any += m;
    }
    List<Claim> claims = bestClaim > 0 ? List.of(new Claim(1, 1, 1, true, 1.1, bestClaim, bestClaim >= 0.97))
        : List.of();
    return new Posterior(claims, mass, 1 - any, 0);
  }

  @Test
  void aStepThatSurelyExistsButSpansTwoVersionsIsUnsureAndBothWithTheOneBeforeAreMeasured() {
    Posterior p = posterior(0.999, 0, 0, 0, 0.01, 0.5, 0.489, 0, 0);
    assertThat(doubt.unsure(p)).isTrue();
    assertThat(doubt.suspects(p)).containsExactly(3, 4, 5);
  }

  @Test
  void aStepPlacedAtOneVersionOrNoStepAtAllIsSettled() {
    assertThat(doubt.suspects(posterior(0.999, 0, 0, 0, 0.995, 0.004, 0, 0))).isEmpty();
    assertThat(doubt.suspects(posterior(0, 0, 0.001, 0.002, 0.001, 0, 0))).isEmpty();
  }

  @Test
  void aDoubtfulStepIsUnsureEvenAtOneVersion() {
    Posterior p = posterior(0.6, 0, 0, 0.6, 0.01, 0);
    assertThat(doubt.suspects(p)).containsExactly(1, 2);
  }

  @Test
  void theLikeliestSuspectsComeFirstWhenTheyDoNotAllFit() {
    UnsureClaims.Doubt narrow = new UnsureClaims.Doubt(0.01, 0.99, 0.03, 3);
    Posterior p = posterior(0.9, 0, 0.05, 0, 0, 0.4, 0.45, 0, 0.05);
    assertThat(narrow.suspects(p)).containsExactly(3, 4, 5);
  }

  /**
   * A claim at 12 the model holds at 0.98 and a candidate step down at 3..6 of 0.036 elsewhere in the series (the
   * first pass of ConfirmEndToEndTest): the claim's suspects are its own versions, not the candidate's, which a
   * confirmation of this claim would re-measure for nothing (and whose far versions in one session with the step's
   * left detection's range wider than before).
   */
  @Test
  void aClaimsSuspectsAreItsOwnNotThoseOfAnotherCandidateInTheSeries() {
    double[] mass = new double[16];
    mass[3] = 0.0335;
    mass[11] = 0.0095;
    mass[12] = 0.9798;
    Posterior p = new Posterior(List.of(new Claim(3, 6, 3, false, 0.96, 0.036, false),
        new Claim(12, 12, 12, true, 1.09, 0.9798, true)), mass, 0, 0);
    assertThat(doubt.suspects(p)).as("the series as a whole").containsExactly(2, 3, 11, 12);
    assertThat(doubt.suspects(p, 12)).as("the claim at 12").containsExactly(11, 12);
    assertThat(doubt.suspects(p, 4)).as("the candidate at 3..6").containsExactly(2, 3);
    assertThat(doubt.suspects(p, -1)).as("a claim the model cannot find: the series").containsExactly(2, 3, 11, 12);
  }

  @Test
  void aClaimTheModelIsSureOfIsSettledWhateverAnotherCandidateSays() {
    double[] mass = new double[16];
    mass[3] = 0.3;
    mass[4] = 0.2;
    mass[12] = 0.995;
    Posterior p = new Posterior(List.of(new Claim(3, 4, 3, false, 0.96, 0.5, false),
        new Claim(12, 12, 12, true, 1.09, 0.995, true)), mass, 0, 0);
    assertThat(doubt.unsure(p, 12)).isFalse();
    assertThat(doubt.suspects(p, 12)).isEmpty();
    assertThat(doubt.unsure(p, 4)).isTrue();
    assertThat(doubt.suspects(p, 4)).containsExactly(2, 3, 4);
  }
}
