package org.perftrack.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.perftrack.wire.FormatGuess;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;

/**
 * Benchmark.js 2.1.4 (npm), {@code bench.js} of the golden README: its console lines become summaries in seconds per
 * operation, its JSON the samples of each benchmark; a thrown error is a failure, a line cut off at the end is left
 * out and named.
 */
class BenchmarkJsFormatTest {

  @Test
  void theConsoleLinesGiveTheMeanTimePerOperationAndTheDeviationOfTheMarginOfError() throws FormatException {
    RunUpload run = Golden.convert("benchmarkjs", "benchmarkjs/benchmark-2.1.4-console.txt");

    assertThat(run.results()).extracting(ResultUpload::benchmark).containsExactly("fib(10)", "fib(15)", "RegExp#test");
    ResultUpload fib = Golden.result(run, "fib(10)", "time-per-op");
    assertThat(fib.unit()).isEqualTo("s");
    assertThat(fib.direction()).isEqualTo(RunUpload.LOWER_IS_BETTER);
    assertThat(fib.n()).isEqualTo(5);
    assertThat(fib.mean()).isCloseTo(1 / 59_231.0, within(1e-12));
    // ±75.45 % of 5 runs: t(4) = 2.776, so sd = 0.7545 × mean × √5 / 2.776
    assertThat(fib.stddev()).isCloseTo(0.7545 / 59_231.0 * Math.sqrt(5) / 2.776, within(1e-10));
    assertThat(run.attributes().get("note")).contains("summary-only");
  }

  @Test
  void theLineOfTheReadmeReadsAsNinetyThreeRunsAndAFileCutInsideItsLastLineKeepsTheOthers() throws FormatException {
    String line = "fib(10) x 1,431,759 ops/sec ±0.74% (93 runs sampled)\n";
    RunUpload one = Golden.convert("benchmarkjs", line.getBytes(StandardCharsets.UTF_8), "bench.txt");
    ResultUpload fib = Golden.result(one, "fib(10)", "time-per-op");
    assertThat(fib.n()).isEqualTo(93);
    assertThat(fib.mean()).isCloseTo(1 / 1_431_759.0, within(1e-15));
    assertThat(fib.stddev()).isCloseTo(0.0074 / 1_431_759.0 * Math.sqrt(93) / 1.96, within(1e-12));

    String whole = new String(Golden.bytes("benchmarkjs/benchmark-2.1.4-console.txt"), StandardCharsets.UTF_8);
    String cut = whole.substring(0, whole.indexOf("1,781,600") + 5);
    RunUpload run = Golden.convert("benchmarkjs", cut.getBytes(StandardCharsets.UTF_8), "bench.txt");
    assertThat(run.results()).extracting(ResultUpload::benchmark).containsExactly("fib(10)", "fib(15)");
    assertThat(run.attributes().get("note")).contains("the file ends inside line 3, left out: "
        + "'RegExp#test x 1,781'");
  }

  @Test
  void theJsonOfTheSuitesBenchmarksGivesTheirSamplesInSecondsAndAThrownErrorAsAFailure() throws FormatException {
    RunUpload run = Golden.convert("benchmarkjs", "benchmarkjs/benchmark-2.1.4.json");

    assertThat(run.results()).extracting(ResultUpload::benchmark).containsExactly("fib(10)", "fib(15)", "RegExp#test");
    ResultUpload fib = Golden.result(run, "fib(15)", "time-per-op");
    assertThat(fib.unit()).isEqualTo("s");
    assertThat(fib.samples()).hasSize(9).startsWith(0.00024382432977099235, 0.00015230746440235142);
    assertThat(run.failures()).singleElement().satisfies(f -> {
      assertThat(f.benchmark()).isEqualTo("throws");
      assertThat(f.message()).isEqualTo("the benchmark threw an error");
    });

    RunUpload one = Golden.convert("benchmarkjs", "benchmarkjs/benchmark-2.1.4-one.json");
    assertThat(Golden.result(one, "fib(10)", "time-per-op").samples()).hasSize(5);
  }

  @Test
  void aBenchmarkWithoutSamplesGivesItsMeanItsPeriodOrItsRate() throws FormatException {
    String json = """
        [{"name": "mean", "hz": 100, "stats": {"rme": 1, "mean": 0.011}, "times": {"period": 0.012}},
         {"name": "period", "hz": 100, "times": {"period": 0.012}},
         {"name": "rate", "hz": 250}]""";
    RunUpload run = Golden.convert("benchmarkjs", json.getBytes(StandardCharsets.UTF_8), "bench.json");

    assertThat(Golden.result(run, "mean", "time-per-op").samples()).containsExactly(0.011);
    assertThat(Golden.result(run, "period", "time-per-op").samples()).containsExactly(0.012);
    assertThat(Golden.result(run, "rate", "time-per-op").samples()).containsExactly(0.004);
  }

  @Test
  void eachShapeIsRecognisedWithoutAFormat() {
    assertThat(FormatGuess.guess("fib(10) x 1,431,759 ops/sec ±0.74% (93 runs sampled)\n".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("benchmarkjs");
    String suite = "{\"0\": {\"name\": \"fib\", \"stats\": {\"rme\": 1, \"sample\": [0.1]}, \"hz\": 10}, \"length\": 1}";
    assertThat(FormatGuess.guess(suite.getBytes(StandardCharsets.UTF_8))).isEqualTo("benchmarkjs");
    assertThat(FormatGuess.label("benchmarkjs")).isEqualTo("Benchmark.js");
  }
}
