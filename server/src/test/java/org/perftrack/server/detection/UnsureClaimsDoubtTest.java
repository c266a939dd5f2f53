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
}
