package org.perftrack.formats;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perftrack.wire.FormatNames;

class BadFileTest {

  @Test
  void truncatedFileIsRefusedNamingTheFileAndWhereItEnds() {
    assertThatThrownBy(() -> Golden.convert("hyperfine", "bad/hyperfine-truncated.json"))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith("bad/hyperfine-truncated.json: truncated JSON: the file ends at line 33, column 1 inside an unfinished value");
  }

  @Test
  void emptyFileIsRefused() {
    assertThatThrownBy(() -> Golden.convert("jmh", "bad/empty.json"))
        .isInstanceOf(FormatException.class)
        .hasMessage("bad/empty.json: the file is empty");
  }

  @ParameterizedTest(name = "{1} given as {0}")
  @CsvSource({
      "hyperfine, gbench/counters.json, Google Benchmark",
      "gbench, hyperfine/basic.json, hyperfine",
      "hyperfine, jmh/thrpt-avgt-gc.json, JMH",
      "jmh, pytest-benchmark/benchmark.json, pytest-benchmark",
      "pytest-benchmark, gbench/repetitions.json, Google Benchmark",
      "perftrack, hyperfine/basic.json, hyperfine"})
  void anotherToolsFileIsRecognisedAndNamed(String format, String file, String looksLike) {
    String expectedLabel = format.equals("gbench") ? "Google Benchmark"
        : format.equals("jmh") ? "JMH" : format;
    assertThatThrownBy(() -> Golden.convert(format, file))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith(file + ": this looks like a " + looksLike + " file, not " + expectedLabel);
  }

  @Test
  void unrecognisedJsonSaysWhatWasExpected() {
    assertThatThrownBy(() -> Formats.byName("gbench").convert("{\"a\": 1}".getBytes(), "x.json", Golden.CONTEXT))
        .hasMessage("x.json: not a Google Benchmark file: expected an object with \"context\" and \"benchmarks\""
            + " (a Google Benchmark program run with --benchmark_format=json)");
  }

  @Test
  void fileWithNoResultsIsRefused() {
    assertThatThrownBy(() -> Golden.convert("hyperfine", "bad/hyperfine-no-results.json"))
        .hasMessage("bad/hyperfine-no-results.json: no benchmark results in this hyperfine file");
  }

  @Test
  void gbenchFileWithOnlyComplexityFitsIsRefused() {
    String file = "{\"context\": {\"date\": \"2026-11-30T07:04:55+00:00\"}, \"benchmarks\": ["
        + "{\"name\": \"BM_Sort_BigO\", \"run_name\": \"BM_Sort\", \"run_type\": \"aggregate\", \"aggregate_name\": \"BigO\","
        + " \"cpu_coefficient\": 1.5, \"real_coefficient\": 1.5, \"big_o\": \"NlgN\", \"time_unit\": \"ns\"}]}";
    assertThatThrownBy(() -> Formats.byName("gbench").convert(file.getBytes(), "fits.json", Golden.CONTEXT))
        .hasMessageStartingWith("fits.json: the file holds neither repetitions nor mean aggregates");
  }

  /** Issue 12 item 8: a message names the place in the file, never a Java type. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {
      "{\"product\": \"p\", \"version\": \"1\", \"results\": [{\"benchmark\": \"b\", \"samples\": \"1,2\"}]}",
      "{\"product\": \"p\", \"version\": \"1\", \"machine\": [\"m\"], \"results\": [{\"benchmark\": \"b\"}]}",
      "{\"product\": \"p\", \"version\": \"1\", \"startedAt\": \"yesterday\", \"results\": []}",
      "{\"product\": \"p\", \"version\": \"1\", \"results\": [{\"benchmark\": \"b\", \"samples\": [1, {}]}]}",
      "{\"product\": \"p\", \"version\": {\"a\": 1], \"results\": []}"})
  void aMalformedRunFileIsDescribedWithoutJavaTypeNames(String file) {
    assertThatThrownBy(() -> Formats.byName("perftrack").convert(file.getBytes(), "run.json", Golden.CONTEXT))
        .isInstanceOf(FormatException.class)
        .hasMessageStartingWith("run.json: ")
        .satisfies(e -> org.assertj.core.api.Assertions.assertThat(e.getMessage())
            .doesNotContainPattern("\\b(java|tools|org)\\.[a-z]+\\.|\\w\\$\\w|`|Source"));
  }

  @Test
  void nonFiniteValueIsRefusedWithItsPath() {
    assertThatThrownBy(() -> Golden.convert("gbench", "bad/gbench-nan.json"))
        .hasMessage("bad/gbench-nan.json: benchmarks[1].real_time is NaN, not a finite number");
  }

  @Test
  void nanWrittenAsTextIsRefusedToo() {
    String jmh = "[{\"benchmark\": \"a.B.c\", \"mode\": \"avgt\","
        + " \"primaryMetric\": {\"scoreUnit\": \"ns/op\", \"rawData\": [[1.0, \"NaN\"]]}}]";
    assertThatThrownBy(() -> Formats.byName("jmh").convert(jmh.getBytes(), "r.json", Golden.CONTEXT))
        .hasMessage("r.json: [0].primaryMetric.rawData[0][1] is \"NaN\", not a finite number");
  }

  @Test
  void foreignFormatNeedsProductVersionAndMachine() {
    assertThatThrownBy(() -> Formats.byName("jmh").convert(Golden.bytes("jmh/thrpt-avgt-gc.json"), "jmh.json",
        new RunContext("demo", null, " ", null)))
        .hasMessageStartingWith("jmh.json: a JMH file does not say which product, version and machine it measured;"
            + " missing: version, machine");
  }

  @Test
  void trailingContentAfterTheDocumentIsRefused() {
    assertThatThrownBy(() -> Formats.byName("hyperfine").convert("{\"results\": []} {}".getBytes(), "t.json",
        Golden.CONTEXT))
        .hasMessageStartingWith("t.json: invalid JSON");
  }

  @Test
  void commandTooLongForABenchmarkNameAsksForACommandName() {
    String command = "make -C build -j8 " + "target ".repeat(150);
    String json = "{\"results\": [{\"command\": \"" + command + "\", \"times\": [1.0, 1.1]}]}";
    assertThatThrownBy(() -> Formats.byName("hyperfine").convert(json.getBytes(), "long.json", Golden.CONTEXT))
        .hasMessageStartingWith("long.json: benchmark name 'make -C build -j8 target")
        .hasMessageEndingWith("characters long, the limit is 1000; name the command with hyperfine --command-name");
  }

  @Test
  void multiLineCommandIsRefusedAsABenchmarkName() {
    String json = "{\"results\": [{\"command\": \"cd x\\nmake\", \"times\": [1.0]}]}";
    assertThatThrownBy(() -> Formats.byName("hyperfine").convert(json.getBytes(), "ml.json", Golden.CONTEXT))
        .hasMessage("ml.json: benchmark name 'cd x␤make' contains a line break or another control character;"
            + " name the command with hyperfine --command-name");
  }

  @Test
  void unknownFormatListsTheKnownOnes() {
    assertThatThrownBy(() -> Formats.byName("criterium"))
        .hasMessage("unknown format 'criterium'; known formats: " + String.join(", ", FormatNames.ALL));
  }
}
