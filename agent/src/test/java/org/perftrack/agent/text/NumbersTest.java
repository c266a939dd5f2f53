package org.perftrack.agent.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NumbersTest {

  @Test
  void bytesTakeTheirPrefix() {
    assertThat(Numbers.quantity(3_180_000_000.0, "B/s")).isEqualTo("3.18 GB/s");
    assertThat(Numbers.quantity(1_092_000_000.0, "B/s")).isEqualTo("1.092 GB/s");
    assertThat(Numbers.quantity(3180, "MB/s")).isEqualTo("3.18 GB/s");
    assertThat(Numbers.quantity(512, "B")).isEqualTo("512 B");
    assertThat(Numbers.quantity(131_072, "bytes")).isEqualTo("131.1 kB");
  }

  @Test
  void aPureNumberHasNoUnit() {
    assertThat(Numbers.quantity(0.001983, "1")).isEqualTo("0.001983");
    assertThat(Numbers.quantity(7, "")).isEqualTo("7");
  }

  @Test
  void otherUnitsKeepFourSignificantDigits() {
    assertThat(Numbers.quantity(18.0123, "us")).isEqualTo("18.01 us");
    assertThat(Numbers.quantity(48.0, "us")).isEqualTo("48 us");
    assertThat(Numbers.quantity(123_456_789, "ns")).isEqualTo("123500000 ns");
  }

  @Test
  void aRatioBelowOneIsHowManyTimesLess() {
    assertThat(Numbers.ratio(2.66595)).isEqualTo("x2.67");
    assertThat(Numbers.ratio(45.04)).isEqualTo("x45");
    assertThat(Numbers.ratio(0.08)).isEqualTo("12.5x less");
    assertThat(Numbers.ratio(0.5)).isEqualTo("2x less");
    assertThat(Numbers.ratio(Double.NaN)).isEqualTo("x?");
  }
}
