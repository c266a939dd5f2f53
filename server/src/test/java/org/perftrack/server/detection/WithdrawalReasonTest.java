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
}
