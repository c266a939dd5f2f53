package org.perftrack.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perftrack.wire.FormatGuess;

/** Every golden file is recognised as its tool's, also when it breaks off half-way. */
class FormatGuessTest {

  @ParameterizedTest(name = "{1}")
  @CsvSource({
      "hyperfine, hyperfine/basic.json", "gbench, gbench/repetitions.json", "gbench, gbench/old-1.4.json",
      "jmh, jmh/sample-ss.json", "pytest-benchmark, pytest-benchmark/autosave.json",
      "go-bench, go-bench/count3-go1.19.txt", "go-bench, go-bench/benchmem-cpu-go1.19.txt",
      "go-bench, go-bench/json-go1.19.txt",
      "cargo-bench, cargo-bench/rust-1.95.txt", "cargo-bench, cargo-bench/rust-1.70-integers.txt",
      "benchmarkdotnet, benchmarkdotnet/full-0.13.json", "benchmarkdotnet, benchmarkdotnet/brief-0.12.json",
      "catch2, catch2/catch2-2.13.10.xml", "catch2, catch2/catch2-v3-layout.xml",
      "asv, asv/cheetah-v1.json", "asv, asv/results/ci-runner/4f8c2a1d-virtualenv-py3.11.json",
      "bmf, bmf/latency-throughput.json", "vitest, vitest/vitest-1.6.1.json", "vitest, vitest/vitest-3.2.4.json",
      "pyperf, pyperf/timeit-2.10.json", "pyperf, pyperf/suite-2.10.json",
      "benchmarkjs, benchmarkjs/benchmark-2.1.4-console.txt", "benchmarkjs, benchmarkjs/benchmark-2.1.4.json",
      "benchmarkjs, benchmarkjs/benchmark-2.1.4-one.json",
      "criterion, criterion/0.3.6/criterion/sum/100/new/sample.json"})
  void aFileIsRecognisedWholeAndCutOff(String format, String file) {
    byte[] whole = Golden.bytes(file);
    assertThat(FormatGuess.guess(whole)).isEqualTo(format);
    assertThat(FormatGuess.guess(Arrays.copyOf(whole, whole.length * 2 / 3))).isEqualTo(format);
  }

  /**
   * A JSON file cut off is refused by its converter naming the line it ends on (what the agent says before it spools
   * anything, and the server in its 400), also when it is recognised by its start only.
   */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(strings = {"hyperfine/basic.json", "gbench/repetitions.json",
      "jmh/sample-ss.json", "pytest-benchmark/autosave.json", "benchmarkdotnet/full-0.13.json",
      "vitest/vitest-3.2.4.json", "pyperf/suite-2.10.json", "benchmarkjs/benchmark-2.1.4.json"})
  void aJsonFileCutOffIsRefusedByItsConverterNamingTheLineItEndsOn(String file) throws FormatException {
    String format = file.substring(0, file.indexOf('/'));
    byte[] whole = Golden.bytes(file);
    byte[] cut = Arrays.copyOf(whole, whole.length * 2 / 3);
    long lines = new String(cut, java.nio.charset.StandardCharsets.UTF_8).chars().filter(c -> c == '\n').count() + 1;

    assertThat(Golden.convert(format, whole, file).results()).isNotEmpty();
    assertThatThrownBy(() -> Golden.convert(format, cut, file)).isInstanceOf(FormatException.class)
        .message().matches(java.util.regex.Pattern.quote(file + ": truncated JSON: the file ends at line " + lines
            + ", column ") + "\\d+ inside an unfinished value");
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource({"criterion, criterion/0.3.6/criterion", "asv, asv/results"})
  void aZippedFolderIsRecognised(String format, String folder) {
    assertThat(FormatGuess.guess(Golden.zip(folder))).isEqualTo(format);
  }

  @org.junit.jupiter.api.Test
  void somethingElseIsNotGuessed() {
    assertThat(FormatGuess.guess("hello\nworld\n".getBytes())).isNull();
    assertThat(FormatGuess.guess("{\"a\": 1}".getBytes())).isNull();
    assertThat(FormatGuess.guess("<html><body/></html>".getBytes())).isNull();
    assertThat(FormatGuess.guess(new byte[0])).isNull();
  }
}
