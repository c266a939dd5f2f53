package org.perftrack.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.perftrack.wire.RunUpload.HIGHER_IS_BETTER;
import static org.perftrack.wire.RunUpload.LOWER_IS_BETTER;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.wire.RunUpload.ResultUpload;
import org.perftrack.wire.RunUpload;

/** The tools added for CI: each golden file (real output where the tool runs here, see golden/README.md). */
class ToolFormatsTest {

  @Test
  void goBenchCountGivesOneSamplePerLineWithThroughput() throws FormatException {
    RunUpload run = Golden.convert("go-bench", "go-bench/count3-go1.19.txt");
    ResultUpload join = Golden.result(run, "BenchmarkJoin-2", "time-per-op");
    assertThat(join.samples()).containsExactly(33.50, 33.79, 34.02);
    assertThat(join.unit()).isEqualTo("ns");
    ResultUpload mbs = Golden.result(run, "BenchmarkRepeat/n=1024-2", "throughput");
    assertThat(mbs.samples()).containsExactly(3515.87, 4139.61, 4240.30);
    assertThat(mbs.direction()).isEqualTo(HIGHER_IS_BETTER);
    assertThat(Golden.result(run, "BenchmarkFields-2", "words/op").unit()).isEqualTo("1");
    assertThat(run.attributes()).containsEntry("go.pkg", "example.com/strs").containsEntry("go.goos", "linux")
        .containsKey("note");
  }

  @Test
  void goBenchMemKeepsEachCpuSettingApart() throws FormatException {
    RunUpload run = Golden.convert("go-bench", "go-bench/benchmem-cpu-go1.19.txt");
    assertThat(Golden.result(run, "BenchmarkJoin", "time-per-op").samples()).containsExactly(33.88, 35.94);
    assertThat(Golden.result(run, "BenchmarkJoin-2", "time-per-op").samples()).containsExactly(38.84, 34.30);
    ResultUpload bytes = Golden.result(run, "BenchmarkRepeat/n=1024", "bytes-per-op");
    assertThat(bytes.samples()).containsExactly(1024.0, 1024.0);
    assertThat(bytes.unit()).isEqualTo("B");
    assertThat(Golden.result(run, "BenchmarkFields", "allocs-per-op").direction()).isEqualTo(LOWER_IS_BETTER);
  }

  @Test
  void goTestJsonEventsGiveTheSameResultsAsItsText() throws FormatException {
    RunUpload run = Golden.convert("go-bench", "go-bench/json-go1.19.txt");
    assertThat(Golden.result(run, "BenchmarkJoin-2", "time-per-op").samples()).containsExactly(177.7, 162.7);
    assertThat(Golden.result(run, "BenchmarkJoin-2", "allocs-per-op").samples()).containsExactly(1.0, 1.0);
    assertThat(Golden.result(run, "BenchmarkRepeat/n=16-2", "throughput").samples()).hasSize(2).contains(135.04);
    assertThat(run.attributes()).containsEntry("go.pkg", "example.com/strs");
  }

  @Test
  void libtestGivesTheMedianOfEachBenchmarkInBothNumberStyles() throws FormatException {
    RunUpload now = Golden.convert("cargo-bench", "cargo-bench/rust-1.95.txt");
    assertThat(Golden.result(now, "tests::bench_fib_20", "time-per-iteration").samples()).containsExactly(15524.94);
    assertThat(Golden.result(now, "tests::bench_vec_push", "throughput").samples()).containsExactly(7850.0);
    assertThat(now.results()).extracting(ResultUpload::benchmark).doesNotContain("tests::bench_ignored");
    RunUpload old = Golden.convert("cargo-bench", "cargo-bench/rust-1.70-integers.txt");
    assertThat(Golden.result(old, "tests::bench_fib_20", "time-per-iteration").samples()).containsExactly(15525.0);
    assertThat(old.attributes().get("note")).contains("median");
  }

  @Test
  void aCargoBenchFileCutInsideItsLastLineKeepsTheWholeLinesAndSaysWhichItLeftOut() throws FormatException {
    String whole = new String(Golden.bytes("cargo-bench/rust-1.95.txt"), java.nio.charset.StandardCharsets.UTF_8);
    String cut = whole.substring(0, whole.indexOf("1,019.43") + 4);

    RunUpload run = Golden.convert("cargo-bench", cut.getBytes(java.nio.charset.StandardCharsets.UTF_8),
        "bench.txt");

    assertThat(run.results()).extracting(ResultUpload::benchmark)
        .containsExactly("tests::bench_fib_10", "tests::bench_fib_20");
    assertThat(run.attributes().get("note")).contains("the file ends inside line 7, left out: "
        + "'test tests::bench_vec_push ... bench:       1,01'");
  }

  @Test
  void criterionFolderGivesTimePerIterationAndElementRates() throws FormatException {
    RunUpload run = Golden.convert("criterion", Golden.zip("criterion/0.3.6/criterion"), "target/criterion");
    assertThat(run.results()).extracting(ResultUpload::benchmark).containsOnly("fib 15", "sum/100", "sum/1000");
    ResultUpload sum = Golden.result(run, "sum/100", "time-per-iteration");
    assertThat(sum.samples()).hasSize(10);
    assertThat(sum.samples().get(0)).isCloseTo(3716408.0 / 2762902.0, within(1e-12));
    ResultUpload rate = Golden.result(run, "sum/100", "elements-per-second");
    assertThat(rate.samples().get(0)).isCloseTo(100 / (3716408.0 / 2762902.0 * 1e-9), within(1.0));
    assertThat(rate.direction()).isEqualTo(HIGHER_IS_BETTER);
    assertThat(run.results()).noneMatch(r -> r.benchmark().equals("fib 15") && r.metric().contains("second"));
  }

  @Test
  void criterionSampleOfTwoArraysIsReadAsIters() throws Exception {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(bytes)) {
      zip.putNextEntry(new java.util.zip.ZipEntry("criterion/copy/new/benchmark.json"));
      zip.write("{\"group_id\": \"copy\", \"function_id\": null, \"value_str\": null, \"throughput\": {\"Bytes\": 4096},"
          .concat(" \"full_id\": \"copy\", \"directory_name\": \"copy\"}").getBytes());
      zip.putNextEntry(new java.util.zip.ZipEntry("criterion/copy/new/sample.json"));
      zip.write("[[10.0, 20.0], [1000.0, 2200.0]]".getBytes()); // a tuple (iters, times), as 0.2 saved it
    }
    RunUpload run = Golden.convert("criterion", bytes.toByteArray(), "old.zip");
    assertThat(Golden.result(run, "copy", "time-per-iteration").samples()).containsExactly(100.0, 110.0);
    assertThat(Golden.result(run, "copy", "bytes-per-second").samples().get(0)).isCloseTo(4096 / 100e-9, within(1.0));
  }

  @Test
  void oneCriterionFileAsksForTheFolder() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Golden.convert("criterion",
        "criterion/0.3.6/criterion/sum/100/new/sample.json"))
        .hasMessageContaining("one file of a Criterion.rs folder; send the whole folder");
  }

  @Test
  void benchmarkDotNetFullReportKeepsEveryResultMeasurement() throws FormatException {
    RunUpload run = Golden.convert("benchmarkdotnet", "benchmarkdotnet/full-0.13.json");
    ResultUpload concat = Golden.result(run, "Sample.Benchmarks.Concat(Size: 10)", "time-per-op");
    assertThat(concat.samples()).hasSize(3);
    assertThat(concat.samples().get(0)).isCloseTo(701622405.0 / 16777216, within(1e-9));
    assertThat(Golden.result(run, "Sample.Benchmarks.Concat(Size: 10)", "allocated-bytes-per-op").samples())
        .containsExactly(56.0);
    assertThat(Golden.result(run, "Sample.Benchmarks.Sum", "time-per-op").samples()).hasSize(3);
    assertThat(run.attributes()).containsEntry("benchmarkdotnet.BenchmarkDotNetVersion", "0.13.12");
  }

  @Test
  void benchmarkDotNetReportWithoutMeasurementsIsASummary() throws FormatException {
    RunUpload run = Golden.convert("benchmarkdotnet", "benchmarkdotnet/brief-0.12.json");
    ResultUpload fib = Golden.result(run, "Sample.Benchmarks.Fib10", "time-per-op");
    assertThat(fib.samples()).isNull();
    assertThat(fib.n()).isEqualTo(15);
    assertThat(fib.mean()).isEqualTo(287.6);
    assertThat(fib.median()).isEqualTo(287.1);
  }

  @Test
  void catch2XmlOfBothLayoutsGivesSummariesInNanoseconds() throws FormatException {
    for (String file : List.of("catch2/catch2-2.13.10.xml", "catch2/catch2-v3-layout.xml")) {
      RunUpload run = Golden.convert("catch2", file);
      ResultUpload fib = Golden.result(run, "fib 20", "time");
      assertThat(fib.unit()).isEqualTo("ns");
      assertThat(fib.n()).isEqualTo(20);
      assertThat(fib.mean()).isEqualTo(7289.28);
      assertThat(fib.stddev()).isEqualTo(161.402);
      assertThat(run.results()).hasSize(3);
    }
  }

  @Test
  void asvFolderGivesSamplesPerParameterCombinationAndUnitsFromBenchmarksJson() throws FormatException {
    RunUpload run = Golden.convert("asv", Golden.zip("asv/results"), ".asv/results");
    ResultUpload small = Golden.result(run, "bench_sort.TimeSuite.time_sort(n=10, kind='int')", "time");
    assertThat(small.samples()).containsExactly(1.0844e-06, 1.0871e-06, 1.0951e-06, 1.0790e-06);
    assertThat(small.unit()).isEqualTo("s");
    assertThat(run.failures()).extracting(RunUpload.BenchmarkFailure::benchmark)
        .containsExactly("bench_sort.TimeSuite.time_sort(n=1000, kind='str')");
    assertThat(Golden.result(run, "bench_sort.MemSuite.mem_list", "memory").unit()).isEqualTo("B");
    assertThat(Golden.result(run, "bench_sort.track_comparisons", "track").unit()).isEqualTo("comparisons");
    assertThat(run.attributes()).containsEntry("asv.commit_hash", "4f8c2a1d9b7e6c5a4f3e2d1c0b9a8f7e6d5c4b3a");
  }

  @Test
  void asvFormatOneFileAloneTakesUnitsFromTheNames() throws FormatException {
    RunUpload run = Golden.convert("asv", "asv/cheetah-v1.json");
    assertThat(Golden.result(run, "time_units.mem_unit", "memory").samples()).containsExactly(728.0);
    assertThat(Golden.result(run, "time_coordinates.time_latitude", "time").unit()).isEqualTo("s");
    assertThat(Golden.result(run, "params_examples.track_param(2)", "track").samples()).containsExactly(5.0);
    assertThat(run.attributes().get("note")).contains("--record-samples");
  }

  @Test
  void bmfMeasuresGetBencherUnitsAndDirections() throws FormatException {
    RunUpload run = Golden.convert("bmf", "bmf/latency-throughput.json");
    assertThat(Golden.result(run, "tests::parse_small", "latency").unit()).isEqualTo("ns");
    assertThat(Golden.result(run, "tests::parse_small", "throughput").direction()).isEqualTo(HIGHER_IS_BETTER);
    assertThat(Golden.result(run, "binary", "file-size").samples()).containsExactly(1843200.0);
    assertThat(run.attributes().get("note")).contains("startup-rss");
  }

  @Test
  void vitestOfTwoVersionsGivesSummariesInMilliseconds() throws FormatException {
    RunUpload v1 = Golden.convert("vitest", "vitest/vitest-1.6.1.json");
    ResultUpload sorted = Golden.result(v1, "math.bench.js > sort > toSorted", "time");
    assertThat(sorted.unit()).isEqualTo("ms");
    assertThat(sorted.n()).isEqualTo(93);
    assertThat(sorted.median()).isNull();
    RunUpload v3 = Golden.convert("vitest", "vitest/vitest-3.2.4.json");
    assertThat(Golden.result(v3, "math.bench.js > json roundtrip", "time").median()).isEqualTo(0.0005050000000892396);
  }

  @Test
  void pyperfValuesOfEveryRunAreTheSamples() throws FormatException {
    RunUpload one = Golden.convert("pyperf", "pyperf/timeit-2.10.json");
    ResultUpload time = one.results().get(0);
    assertThat(time.unit()).isEqualTo("s");
    assertThat(time.samples()).hasSize(9).contains(8.705330000111645e-07);
    RunUpload suite = Golden.convert("pyperf", "pyperf/suite-2.10.json");
    assertThat(suite.results()).extracting(ResultUpload::benchmark).containsExactly("sort", "join");
    assertThat(Golden.result(suite, "join", "time").samples()).hasSize(6);
    assertThat(suite.attributes()).containsKey("pyperf.python_version");
  }
}
