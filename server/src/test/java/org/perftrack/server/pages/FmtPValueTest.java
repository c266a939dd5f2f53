package org.perftrack.server.pages;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.perftrack.wire.Quantities;

/** A table's p-value cell and a sentence's "p = …" are written by one rule, with one cut-off. */
class FmtPValueTest {

  private final Fmt fmt = new Fmt();

  @Test
  void aCellWritesWhatASentenceWritesAfterItsP() {
    assertThat(fmt.p(0.0004)).isEqualTo("< 0.001");
    assertThat(fmt.p(0.01234)).isEqualTo("0.012");
    assertThat(fmt.p(null)).isEqualTo("—");
    assertThat(fmt.p(Double.NaN)).isEqualTo("—");
    for (double p : new double[] {0, 0.0004, 0.00099, 0.001, 0.0012345, 0.05, 0.41249, 0.9996, 1}) {
      assertThat(fmt.p(p)).as("p %s", p).isEqualTo(Quantities.pValue(p));
      assertThat(Quantities.p(p)).as("p %s", p).isEqualTo(p < 0.001 ? "p " + fmt.p(p) : "p = " + fmt.p(p));
    }
  }
}
