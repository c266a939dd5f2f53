package org.perftrack.agent.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WordsTest {

  @Test
  void aCountTakesItsNounInTheRightNumberAndGroupsLargeCountsAsTheServerDoes() {
    assertThat(Words.count(1, "run")).isEqualTo("1 run");
    assertThat(Words.count(0, "regression")).isEqualTo("0 regressions");
    assertThat(Words.count(9_999, "run")).isEqualTo("9999 runs");
    assertThat(Words.count(250_000, "run")).isEqualTo("250,000 runs");
  }
}
