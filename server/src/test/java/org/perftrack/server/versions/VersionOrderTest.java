package org.perftrack.server.versions;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perftrack.wire.VersionKey;

class VersionOrderTest {

  @ParameterizedTest(name = "{0} < {1}")
  @CsvSource({
      "1.5.19-4, 1.5.24-2",
      "1.5.24-2, 1.7.5",
      "1.7.5, 1.7.7",
      "1.7.7, 3.5.4-1",
      "1.7.9, 1.7.10",
      "2.1.0-rc1, 2.1.0",
      "2.1.0-rc1, 2.1.0-rc2",
      "2.1.0-alpha, 2.1.0-beta",
      "2.1.0-beta2, 2.1.0-rc1",
      "2.1.0-RC1, 2.1.0",
      "1.7.8, 1.7.8-s20101020",
      "1.7.8-s20101020, 1.7.8-s20101105",
      "1.7.8-s20101020, 1.7.8-1",
      "1.7.8-s20101020, 1.7.9",
      "1.7.7, 20070307",
      "1.0, 1.0.1",
      "1.0-1, 1.0-10",
      "1.5.24-2, 1.5.25-1",
      "abc, abd",
      "foo, foo bar",
      "1.05, 1.5",
      "v1.0.9, v1.0.10",
      "v1.0.3, v1.0.10",
      "1.0, v1.0.4",
      "v1.0, 1.0.4",
      "1.0.3, v1.0.4",
      "v1.0.4, 1.0.5",
      "V1.0.9, v1.0.10",
      "v2.1.0-rc1, v2.1.0",
      "1.7.7, v20070307",
  })
  void ordersByMeaning(String lower, String higher) {
    assertThat(VersionOrder.INSTANCE.compare(lower, higher)).isNegative();
    assertThat(VersionOrder.INSTANCE.compare(higher, lower)).isPositive();
    assertThat(VersionKey.of(lower).compareTo(VersionKey.of(higher))).isNegative();
  }

  @Test
  void equalNamesAreEqual() {
    assertThat(VersionOrder.INSTANCE.compare("1.5.24-2", "1.5.24-2")).isZero();
  }

  @Test
  void leadingZerosCompareByValueAndTieBreakOnTheName() {
    assertThat(VersionOrder.INSTANCE.compare("1.05", "1.4")).isPositive();
    assertThat(VersionOrder.INSTANCE.compare("1.05", "1.6")).isNegative();
  }

  @Test
  void unparseableNamesStillGetAStableTotalOrder() {
    List<String> names = new ArrayList<>(List.of("???", "", "weird name!", "…", "v", "1.7.7", "1.5.24-2",
        "2.1.0-rc1", "2.1.0", "20070307", "1.7.8-s20101020", "x86_64", "1.7.10", "1.7.9"));
    List<String> sorted = new ArrayList<>(names);
    sorted.sort(VersionOrder.INSTANCE);
    for (int seed = 0; seed < 20; seed++) {
      List<String> shuffled = new ArrayList<>(names);
      Collections.shuffle(shuffled, new Random(seed));
      shuffled.sort(VersionOrder.INSTANCE);
      assertThat(shuffled).isEqualTo(sorted);
    }
    assertThat(sorted.subList(sorted.indexOf("1.5.24-2"), sorted.size()))
        .containsSubsequence("1.5.24-2", "1.7.7", "1.7.8-s20101020", "1.7.9", "1.7.10", "2.1.0-rc1", "2.1.0",
            "20070307");
  }

  @Test
  void aLeadingVBeforeADigitIsNotAWordSoTagsSortBesideTheirPlainNames() {
    List<String> names = new ArrayList<>(List.of("v1.0.10", "1.0", "V1.0.3", "v1.0.4", "1.0.4", "v1.0.9", "1.1",
        "v2.0", "vim", "version"));
    names.sort(VersionOrder.INSTANCE);
    assertThat(names).containsExactly("version", "vim", "1.0", "V1.0.3", "1.0.4", "v1.0.4", "v1.0.9", "v1.0.10",
        "1.1", "v2.0");
  }

  @Test
  void numbersLongerThanALongStillOrder() {
    assertThat(VersionOrder.INSTANCE.compare("1.99999999999999999999", "1.100000000000000000000")).isNegative();
  }
}
