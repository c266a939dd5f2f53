package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A withdrawal's reason as people read it, whatever form it was stored in. */
class WithdrawalReasonTest {

  @Test
  void aLevelStoredWithItsDigitsGroupedReadsAsStored() {
    String grouped = "reverted: versions 4.12..4.13 are back at 75,000 ns (baseline 75,010 ns), so 4.11 was one"
        + " unusual session";
    assertThat(WithdrawalReason.worded(grouped, "ns")).isEqualTo(grouped);
    String pure = "measured again, 4.11 is back at 456,600,000 (baseline 456,700,000, recorded 912,000,000), so the"
        + " first session was a bad one";
    assertThat(WithdrawalReason.worded(pure, "1")).isEqualTo(pure);
    assertThat(WithdrawalReason.worded("measured again, 4.11 is back at 4.566e+08 (baseline 4.567e+08, recorded"
        + " 9.12e+08), so the first session was a bad one", "count"))
        .isEqualTo("measured again, 4.11 is back at 456,600,000 count (baseline 456,700,000 count, recorded"
            + " 912,000,000 count), so the first session was a bad one");
  }

  @Test
  void ratiosAndPValuesReadAsThePagesWordThem() {
    assertThat(WithdrawalReason.noSuchStep("4.10", "4.11", 1.004, 0.4123, 1.3))
        .isEqualTo("measured interleaved with 4.10, 4.11 shows no such step: ×1 round by round (p = 0.412),"
            + " recorded ×1.3");
    assertThat(WithdrawalReason.noSuchStep("4.10", "4.11", 0.97, 0.00002, 2.6667))
        .contains("1.03× less round by round (p < 0.001), recorded ×2.67");
    assertThat(WithdrawalReason.noLongerAStep("4.14", "4.11", 1.0412, 1.43, 0.52))
        .isEqualTo("no longer a step with the versions up to 4.14: the change at 4.11 is ×1.04, 1.4 × its error with"
            + " the between-session noise as it was up to 4.11 (±0.5%)");
  }

  @Test
  void aReasonStoredWithRawRatiosAndPValuesReadsAsANewOne() {
    String old = "measured interleaved with 4.10, 4.11 shows no such step: ×0.970 round by round (p = 0.41),"
        + " recorded ×1.300";
    assertThat(WithdrawalReason.worded(old, "us")).isEqualTo(WithdrawalReason.noSuchStep("4.10", "4.11", 0.97, 0.41, 1.3));
    assertThat(WithdrawalReason.worded("measured interleaved with 4.10, 4.11 shows no such step: ×1.004 round by"
        + " round (p = 1.2e-05), recorded ×2.667", "us")).contains("×1 round by round (p < 0.001), recorded ×2.67");
    String stored = "no longer a step with the versions up to 4.14: the change at 4.11 is ×1.041, 1.4 × its error with"
        + " the between-session noise as it was up to 4.11 (±0.5 %)";
    assertThat(WithdrawalReason.worded(stored, "us")).isEqualTo(stored.replace("×1.041", "×1.04").replace("±0.5 %", "±0.5%"));
    String today = WithdrawalReason.noSuchStep("4.10", "4.11", 0.97, 0.41, 1.3);
    assertThat(WithdrawalReason.worded(today, "us")).as("a reason stored as worded today reads as stored").isEqualTo(today);
  }
}
