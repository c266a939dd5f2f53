package org.perftrack.server.pages;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FmtNameTest {

  private final Fmt fmt = new Fmt();

  @Test
  void shortNamesAreShownWhole() {
    assertThat(fmt.name("write-64b")).isEqualTo("write-64b");
  }

  @Test
  void longNamesKeepTheirStartAndTheirEndAroundAnEllipsis() {
    String jmh = "bench.LongNameBench.concatenateTheConfiguredTextWithItsSize[configuration="
        + "a-configuration-name-that-says-exactly-which-codec-buffer-pool-and-allocator,size=10]";

    String shown = fmt.name(jmh);

    assertThat(shown).hasSize(Fmt.NAME_SHOWN).startsWith("bench.LongNameBench.").contains("…").endsWith(",size=10]");
  }
}
