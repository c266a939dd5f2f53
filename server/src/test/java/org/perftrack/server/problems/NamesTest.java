package org.perftrack.server.problems;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.problems.InvalidInput.FieldProblem;
import org.perftrack.wire.Quantities;

/**
 * A name far longer than its limit is refused with its length written as the project writes numbers: grouped by
 * thousands from 10,000, as {@link Quantities#count} writes them (which this package cannot use).
 */
class NamesTest {

  @Test
  void aNameTenThousandCharactersLongSaysItsLengthWithItsDigitsGrouped() {
    assertThat(problem(n -> Names.check("product", "x".repeat(12_345), n)))
        .isEqualTo("product: must be at most 128 characters (has 12,345)");
    assertThat(problem(n -> Names.check("product", "x".repeat(9_999), n)))
        .isEqualTo("product: must be at most 128 characters (has 9999)");
    assertThat(problem(n -> Names.checkBenchmark("results[0].benchmark", "x".repeat(10_000), n)))
        .isEqualTo("results[0].benchmark: must be at most 1000 characters (has 10,000)");
    // 700 three-byte characters: within the characters' limit, over the bytes'
    assertThat(problem(n -> Names.checkBenchmark("results[0].benchmark", "€".repeat(700), n)))
        .isEqualTo("results[0].benchmark: must be at most 2000 bytes in UTF-8 (has 2100)");
  }

  @Test
  void itsCountsReadAsTheProjectsFormatterWritesThem() {
    for (long n : new long[] {0, 9, 999, 1000, 9_999, 10_000, 12_345, 999_999, 16_777_216, 1_000_000_002L, -10_001}) {
      assertThat(Names.count(n)).as("%d", n).isEqualTo(Quantities.count(n));
    }
  }

  private static String problem(java.util.function.Consumer<List<FieldProblem>> check) {
    List<FieldProblem> problems = new ArrayList<>();
    check.accept(problems);
    assertThat(problems).hasSize(1);
    return problems.get(0).field() + ": " + problems.get(0).message();
  }
}
