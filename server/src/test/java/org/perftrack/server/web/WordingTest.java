package org.perftrack.server.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WordingTest {

  @Test
  void ratiosReadAsAPersonSaysThemWithoutTrailingZeros() {
    assertThat(Wording.ratio(3000.0)).isEqualTo("×3000");
    assertThat(Wording.ratio(2999.7)).isEqualTo("×3000");
    assertThat(Wording.ratio(4.70)).isEqualTo("×4.7");
    assertThat(Wording.ratio(1.2345)).isEqualTo("×1.23");
    assertThat(Wording.ratio(2.6667)).isEqualTo("×2.67");
    assertThat(Wording.ratio(44.93)).isEqualTo("×44.9");
    assertThat(Wording.ratio(2.0)).isEqualTo("×2");
    assertThat(Wording.ratio(0.2)).as("below 1: how many times less").isEqualTo("5× less");
    assertThat(Wording.ratio(Double.NaN)).isEqualTo("—");
    assertThat(Wording.ratio(Double.POSITIVE_INFINITY)).as("a baseline of 0").isEqualTo("from 0");
    assertThat(Wording.ratio(0.0)).as("down to 0").isEqualTo("to 0");
  }

  @Test
  void aRatioBelowOneReadsAsTimesLess() {
    assertThat(Wording.ratio(0.08)).isEqualTo("12.5× less");
    assertThat(Wording.ratio(0.5)).isEqualTo("2× less");
    assertThat(Wording.ratio(0.3434)).isEqualTo("2.91× less");
    assertThat(Wording.ratio(43.2)).isEqualTo("×43.2");
  }

  @Test
  void aPureNumberIsWrittenWithoutTheUnitOne() {
    assertThat(Wording.quantity("0.001983", "1")).isEqualTo("0.001983");
    assertThat(Wording.quantity("48.1", "us")).isEqualTo("48.1 us");
    assertThat(Wording.quantity("3", null)).isEqualTo("3");
  }

  @Test
  void countsTakeTheirNounInTheRightNumber() {
    assertThat(Wording.count(1, "benchmark")).isEqualTo("1 benchmark");
    assertThat(Wording.count(3, "benchmark")).isEqualTo("3 benchmarks");
    assertThat(Wording.count(0, "regression")).isEqualTo("0 regressions");
    assertThat(Wording.noun(1, "machine")).isEqualTo("machine");
    assertThat(Wording.noun(2, "box")).isEqualTo("boxes");
    assertThat(Wording.count(2, "branch")).isEqualTo("2 branches");
    assertThat(Wording.count(20_000, "version")).as("grouped as other large numbers").isEqualTo("20,000 versions");
  }
}
