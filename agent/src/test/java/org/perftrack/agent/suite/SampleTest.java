package org.perftrack.agent.suite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SampleTest {

  @Test
  void readsTheSampleLineAmongOtherOutput() {
    String output = "noise\nperftrack-sample value=0.467 unit=us iters=217859 elapsed=0.10 ctxt=7.3e-05 user=0.037 sys=0.43\n";

    assertThat(Sample.parse(output)).contains(new Sample(0.467, 7.3e-05, 0.037, 0.43));
  }

  @Test
  void platformWithoutContextSwitchCountsGivesNegativeCtxt() {
    assertThat(Sample.parse("perftrack-sample value=2 unit=us ctxt=-1 user=1 sys=1").orElseThrow().ctxtPerOp())
        .isNegative();
  }

  @Test
  void nonsenseValuesAreNoSample() {
    assertThat(Sample.parse("perftrack-sample value=inf unit=us")).isEmpty();
    assertThat(Sample.parse("perftrack-sample value=0 unit=us")).isEmpty();
    assertThat(Sample.parse("perftrack-sample unit=us")).isEmpty();
    assertThat(Sample.parse("Segmentation fault")).isEmpty();
  }

  @Test
  void readsTheCalibratedIterationCount() {
    assertThat(Sample.parseIterations("perftrack-calibrated iters=220191\n")).hasValue(220191);
    assertThat(Sample.parseIterations("perftrack-calibrated iters=0\n")).isEmpty();
    assertThat(Sample.parseIterations("")).isEmpty();
  }
}
