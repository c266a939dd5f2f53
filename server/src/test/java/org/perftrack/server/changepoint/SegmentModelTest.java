package org.perftrack.server.changepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The model on generated segments whose truth is known (effects far beyond noise, so the test cannot flicker). */
class SegmentModelTest {

  private final SegmentModel model = SegmentModel.of(0.02);

  @Test
  void aClearStepIsClaimedAtItsVersionWithItsRatio() {
    Posterior p = model.judge(segment(new Random(1), 24, 0.02, 0.005, 12, 1.30));

    assertThat(p.claimed()).hasSize(1);
    Claim c = p.claimed().get(0);
    assertThat(c.first()).isEqualTo(12);
    assertThat(c.width()).isEqualTo(1);
    assertThat(c.up()).isTrue();
    assertThat(c.ratio()).isBetween(1.25, 1.35);
    assertThat(c.probability()).isGreaterThan(0.99);
    assertThat(p.stepMass()[12]).isGreaterThan(0.9);
    assertThat(p.anyStep()).isGreaterThan(0.99);
  }

  @Test
  void noiseAloneClaimsNothingAndSaysThereIsLikelyNoStep() {
    int claims = 0;
    for (int seed = 0; seed < 40; seed++) {
      Posterior p = model.judge(segment(new Random(seed), 24, 0.05, 0.005, -1, 1));
      claims += p.claimed().size();
      assertThat(p.stepMass()[0]).isZero();
    }
    assertThat(claims).as("claims in 40 noise-only segments").isLessThanOrEqualTo(1);
    assertThat(model.judge(segment(new Random(99), 24, 0.05, 0.005, -1, 1)).noStep()).isGreaterThan(0.5);
  }

  @Test
  void aFallIsClaimedDownAndAStepBelowMinChangeIsNot() {
    Posterior fall = model.judge(segment(new Random(3), 20, 0.01, 0.002, 8, 1 / 1.5));
    assertThat(fall.claimed()).singleElement().satisfies(c -> {
      assertThat(c.up()).isFalse();
      assertThat(c.first()).isEqualTo(8);
    });
    Posterior tiny = SegmentModel.of(0.10).judge(segment(new Random(4), 20, 0.005, 0.001, 8, 1.03));
    assertThat(tiny.claimed()).as("a clear 3 % step is below a min-change of 10 %").isEmpty();
  }

  @Test
  void anOutlierSessionInTheMiddleIsNoStep() {
    Segment s = segment(new Random(5), 24, 0.01, 0.003, -1, 1);
    List<Segment.Version> versions = new ArrayList<>(s.versions());
    versions.set(10, new Segment.Version("1.10", List.of(scaled(versions.get(10).runs().get(0), 1.25))));
    assertThat(model.judge(new Segment(versions, 0)).claimed()).isEmpty();
  }

  @Test
  void manyOutlierSessionsMakeNoStepButAStepAmongThemIsClaimed() {
    Segment s = segment(new Random(8), 30, 0.01, 0.002, -1, 1);
    List<Segment.Version> versions = new ArrayList<>(s.versions());
    for (int k : new int[] {5, 10, 13, 22, 25}) {
      versions.set(k, new Segment.Version("1." + k, List.of(scaled(versions.get(k).runs().get(0), 1.2))));
    }
    assertThat(model.judge(new Segment(versions, 0)).claimed()).isEmpty();
    for (int k = 18; k < 30; k++) {
      versions.set(k, new Segment.Version("1." + k, List.of(scaled(versions.get(k).runs().get(0), 1.3))));
    }
    assertThat(model.judge(new Segment(versions, 0)).claimed()).as("%s", model.judge(new Segment(versions, 0)))
        .extracting(Claim::first).containsExactly(18);
  }

  @Test
  void twoStepsAreBothClaimed() {
    Segment s = segment(new Random(6), 30, 0.01, 0.003, 8, 1.2);
    List<Segment.Version> versions = new ArrayList<>();
    for (int k = 0; k < 30; k++) {
      Segment.Version v = s.versions().get(k);
      versions.add(k < 20 ? v : new Segment.Version(v.name(), List.of(scaled(v.runs().get(0), 0.7))));
    }
    Posterior p = model.judge(new Segment(versions, 0));
    assertThat(p.claimed()).extracting(Claim::first).containsExactly(8, 20);
    assertThat(p.twoSteps()).isGreaterThan(0.9);
  }

  @Test
  void aStepHiddenInNoiseIsACandidateOverARangeNotAClaim() {
    Posterior p = model.judge(segment(new Random(7), 24, 0.08, 0.005, 12, 1.045));
    assertThat(p.claims()).isNotEmpty();
    assertThat(p.best()).isLessThan(SegmentModel.CLAIM_PROBABILITY);
    assertThat(p.unsure(0.01, 0.99)).isTrue();
  }

  @Test
  void rareOutlierSamplesAreLeftOutSoASmallStepAmongThemIsPlacedExactly() {
    Segment s = segment(new Random(12), 30, 0.01, 0.002, 15, 1.04);
    List<Segment.Version> versions = new ArrayList<>();
    for (int k = 0; k < 30; k++) {
      double[] samples = s.versions().get(k).runs().get(0).clone();
      if (k % 4 == 1) {
        samples[k % 5] *= 2.5;
      }
      versions.add(new Segment.Version("1." + k, List.of(samples)));
    }
    Posterior p = model.judge(new Segment(versions, 0));
    assertThat(p.claimed()).singleElement().satisfies(c -> {
      assertThat(c.first()).isEqualTo(15);
      assertThat(c.width()).isEqualTo(1);
    });
  }

  @Test
  void aClaimNamesTheNarrowestRunThatHoldsItsProbabilityAndWiderRunsOnlyWhereNoneOfFourDoes() {
    SegmentModel upToEight = new SegmentModel(SegmentModel.CLAIM_PROBABILITY, 0.02, StepRate.initial(), 8);
    Segment placed = segment(new Random(2), 30, 0.08, 0.003, 12, 1.12);
    assertThat(model.judge(placed).claimed()).extracting(Claim::first, Claim::last).containsExactly(tuple(11, 13));
    assertThat(upToEight.judge(placed).claimed()).extracting(Claim::first, Claim::last)
        .containsExactly(tuple(11, 13));
    Segment spread = segment(new Random(1), 30, 0.08, 0.003, 12, 1.12);
    assertThat(model.judge(spread).claimed()).isEmpty();
    assertThat(upToEight.judge(spread).claimed()).singleElement().satisfies(c -> {
      assertThat(c.width()).isBetween(5, 8);
      assertThat(c.first()).isLessThanOrEqualTo(12);
      assertThat(c.last()).isGreaterThanOrEqualTo(12);
    });
  }

  @Test
  void aSlowDriftIsNoRunOfStepsButAStepOnTopOfItIsClaimed() {
    int claims = 0;
    for (int seed = 0; seed < 10; seed++) {
      claims += model.judge(drifting(segment(new Random(seed), 30, 0.01, 0.002, -1, 1), 0.003)).claimed().size();
    }
    assertThat(claims).as("claims in 10 segments drifting 0.3 % a version").isLessThanOrEqualTo(1);
    Posterior step = model.judge(drifting(segment(new Random(11), 30, 0.01, 0.002, 15, 1.15), 0.003));
    assertThat(step.claimed()).extracting(Claim::first).containsExactly(15);
  }

  static Segment drifting(Segment s, double perVersion) {
    List<Segment.Version> versions = new ArrayList<>();
    for (int k = 0; k < s.versions().size(); k++) {
      Segment.Version v = s.versions().get(k);
      versions.add(new Segment.Version(v.name(), List.of(scaled(v.runs().get(0), Math.exp(perVersion * k)))));
    }
    return new Segment(versions, 0);
  }

  @Test
  void theStepRateStartsAtOneIn40AndLearnsFromDecidedSteps() {
    assertThat(StepRate.initial()).isEqualTo(1 / 40.0);
    assertThat(StepRate.of(10, 100)).isEqualTo(11 / 140.0);
  }

  static double[] scaled(double[] samples, double factor) {
    return java.util.Arrays.stream(samples).map(x -> x * factor).toArray();
  }

  /** One run of 5 samples a version: sample CV {@code cv}, session SD {@code session}, a step at {@code at}. */
  static Segment segment(Random random, int count, double cv, double session, int at, double ratio) {
    List<Segment.Version> versions = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      double level = 100 * (at >= 0 && k >= at ? ratio : 1) * Math.exp(session * random.nextGaussian());
      double[] samples = new double[5];
      for (int i = 0; i < 5; i++) {
        samples[i] = level * Math.exp(cv * random.nextGaussian());
      }
      versions.add(new Segment.Version("1." + k, List.of(samples)));
    }
    return new Segment(versions, 0);
  }
}
