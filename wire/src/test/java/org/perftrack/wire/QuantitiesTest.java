package org.perftrack.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The one number wording of pages, mails and the agent's console. */
class QuantitiesTest {

  @Test
  void bytesTakeTheirSiPrefix() {
    assertThat(Quantities.quantity(3_180_000_000.0, "B/s")).isEqualTo("3.18 GB/s");
    assertThat(Quantities.quantity(1_092_000_000.0, "B/s")).isEqualTo("1.092 GB/s");
    assertThat(Quantities.quantity(3180, "MB/s")).as("the suite's MB/s is 10^6 bytes a second").isEqualTo("3.18 GB/s");
    assertThat(Quantities.quantity(512, "B")).isEqualTo("512 B");
    assertThat(Quantities.quantity(131_072, "bytes")).isEqualTo("131.1 kB");
    assertThat(Quantities.quantity(999.96, "B")).isEqualTo("1 kB");
  }

  @Test
  void numbersShownTogetherUnderOneUnitTakeThePrefixOfTheLargest() {
    Quantities.Scale row = Quantities.scale("B/s", 3_180_000_000.0, 1_092_000_000.0);
    assertThat(row.unit()).isEqualTo("GB/s");
    assertThat(row.number(3_180_000_000.0) + " → " + row.number(1_092_000_000.0)).isEqualTo("3.18 → 1.092");
    Quantities.Scale column = Quantities.scale("MB/s", 0.4, 3180, Double.NaN);
    assertThat(column.unit()).as("the suite's MB/s is 10^6 bytes a second").isEqualTo("GB/s");
    assertThat(column.number(0.4)).isEqualTo("0.0004");
    assertThat(Quantities.scale("bytes", 512, 131_072).unit()).isEqualTo("kB");
    assertThat(Quantities.scale("B", 999.96).number(999.96)).isEqualTo("1");
    assertThat(Quantities.scale("MB/s", Double.NaN).unit()).as("nothing to scale by").isEqualTo("MB/s");
    Quantities.Scale time = Quantities.scale("ns", 123_456_789);
    assertThat(time.unit() + " " + time.number(48.02)).as("other units as given").isEqualTo("ns 48.02");
    assertThat(Quantities.scale("1", 7).unit()).isEqualTo("1");
  }

  @Test
  void aTimeBelowOneOfItsUnitTakesTheSmallerUnitItsLargestNumberNeeds() {
    assertThat(Quantities.quantity(3.816e-06, "s")).as("pytest-benchmark's seconds").isEqualTo("3.816 \u00b5s");
    assertThat(Quantities.quantity(0.25, "ms")).isEqualTo("250 \u00b5s");
    assertThat(Quantities.quantity(0.0123, "s")).isEqualTo("12.3 ms");
    assertThat(Quantities.quantity(0.5, "us")).isEqualTo("500 ns");
    assertThat(Quantities.quantity(0.000002, "ns")).as("nanoseconds at the lowest").isEqualTo("2.000e-06 ns");
    assertThat(Quantities.quantity(1.5, "s")).isEqualTo("1.5 s");
    assertThat(Quantities.quantity(0, "s")).isEqualTo("0 s");
    Quantities.Scale column = Quantities.scale("s", 3.816e-06, 4.2e-07, Double.NaN);
    assertThat(column.unit()).isEqualTo("\u00b5s");
    assertThat(column.number(3.816e-06) + " " + column.number(4.2e-07)).isEqualTo("3.816 0.42");
    assertThat(Quantities.scale("s", 2.5, 3.816e-06).unit()).as("the largest is a second or more").isEqualTo("s");
    assertThat(Quantities.scale("us", 48.02).unit()).as("spelled as given").isEqualTo("us");
    assertThat(Quantities.scale("ms", Double.NaN).unit()).isEqualTo("ms");
    assertThat(Quantities.ascii(Quantities.quantity(3.816e-06, "s"))).as("on a console").isEqualTo("3.816 us");
  }

  @Test
  void aPureNumberHasNoUnit() {
    assertThat(Quantities.quantity(0.001983, "1")).isEqualTo("0.001983");
    assertThat(Quantities.quantity(7, "")).isEqualTo("7");
    assertThat(Quantities.quantity(7, null)).isEqualTo("7");
    assertThat(Quantities.unit(" 1 ")).isEmpty();
    assertThat(Quantities.unit("us")).isEqualTo("us");
  }

  @Test
  void otherUnitsKeepFourSignificantDigitsAndAnExponentOnlyFarFromEverydayMagnitudes() {
    assertThat(Quantities.quantity(18.0123, "us")).isEqualTo("18.01 us");
    assertThat(Quantities.quantity(48.0, "us")).isEqualTo("48 us");
    assertThat(Quantities.quantity(2300, "us")).isEqualTo("2300 us");
    assertThat(Quantities.quantity(9_999.6, "us")).as("rounds up to five digits").isEqualTo("10,000 us");
    assertThat(Quantities.quantity(75_000, "ns")).isEqualTo("75,000 ns");
    assertThat(Quantities.quantity(9_999_000, "ns")).isEqualTo("9,999,000 ns");
    assertThat(Quantities.quantity(123_456_789, "ns")).isEqualTo("123,500,000 ns");
    assertThat(Quantities.quantity(456_612_345, "count")).isEqualTo("456,600,000 count");
    assertThat(Quantities.number(-12_345_678)).isEqualTo("-12,350,000");
    assertThat(Quantities.number(999_949_999_999_999.0)).isEqualTo("999,900,000,000,000");
    assertThat(Quantities.number(1e15)).isEqualTo("1.000e+15");
    assertThat(Quantities.number(0.00004812)).isEqualTo("4.812e-05");
    assertThat(Quantities.number(0)).isEqualTo("0");
    assertThat(Quantities.number(Double.NaN)).isEqualTo("?");
  }

  @Test
  void aCountKeepsEveryDigitGroupedFromTenThousand() {
    assertThat(Quantities.count(1024)).isEqualTo("1024");
    assertThat(Quantities.count(9_999)).isEqualTo("9999");
    assertThat(Quantities.count(24_105)).isEqualTo("24,105");
    assertThat(Quantities.count(20_000)).isEqualTo("20,000");
    assertThat(Quantities.count(1_234_567_890_123L)).isEqualTo("1,234,567,890,123");
    assertThat(Quantities.count(-45_678)).isEqualTo("-45,678");
  }

  @Test
  void aRatioBelowOneIsHowManyTimesLess() {
    assertThat(Quantities.ratio(2.66595)).isEqualTo("×2.67");
    assertThat(Quantities.ratio(45.04)).isEqualTo("×45");
    assertThat(Quantities.ratio(3000.4)).isEqualTo("×3000");
    assertThat(Quantities.ratio(1.0)).isEqualTo("×1");
    assertThat(Quantities.ratio(0.08)).isEqualTo("12.5× less");
    assertThat(Quantities.ratio(0.3434)).isEqualTo("2.91× less");
    assertThat(Quantities.ratio(0.5, "x")).as("the console's ASCII sign").isEqualTo("2x less");
    assertThat(Quantities.ratio(2.66595, "x")).isEqualTo("x2.67");
    assertThat(Quantities.ratio(Double.NaN)).isEqualTo("?");
    assertThat(Quantities.ratio(0)).isEqualTo("?");
  }

  @Test
  void aPValueIsAConfidence() {
    assertThat(Quantities.p(0.0004)).isEqualTo("p < 0.001");
    assertThat(Quantities.p(0.01234)).isEqualTo("p = 0.012");
    assertThat(Quantities.p(Double.NaN)).isEqualTo("p = ?");
    assertThat(Quantities.p(0.001)).as("the cut-off").isEqualTo("p = 0.001");
  }

  @Test
  void aTableCellWritesThePValueWithoutItsP() {
    assertThat(Quantities.pValue(0.0004)).isEqualTo("< 0.001");
    assertThat(Quantities.pValue(0.01234)).isEqualTo("0.012");
    assertThat(Quantities.pValue(0.001)).isEqualTo("0.001");
    assertThat(Quantities.pValue(Double.NaN)).isEqualTo("?");
  }

  @Test
  void aFractionIsAPercentageWithOneDecimal() {
    assertThat(Quantities.percent(0.2444)).isEqualTo("24.4%");
  }
}
