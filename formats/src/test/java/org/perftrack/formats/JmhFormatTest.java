package org.perftrack.formats;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.perftrack.formats.Golden.result;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import com.fasterxml.jackson.databind.JsonNode;

class JmhFormatTest {

  private static final String GC = "jmh/thrpt-avgt-gc.json";

  @Test
  void benchmarkNameCarriesItsParams() throws Exception {
    RunUpload run = Golden.convert("jmh", GC);

    assertThat(run.results()).extracting(ResultUpload::benchmark).containsOnly(
        "bench.StringBench.hash[size=10]", "bench.StringBench.hash[size=1000]",
        "bench.StringBench.concat[size=10]", "bench.StringBench.concat[size=1000]");
  }

  @Test
  void throughputIsHigherIsBetterInItsScoreUnit() throws Exception {
    ResultUpload hash = result(Golden.convert("jmh", GC), "bench.StringBench.hash[size=10]", "throughput");

    assertThat(hash.unit()).isEqualTo("ops/s");
    assertThat(hash.direction()).isEqualTo("higher_is_better");
  }

  @Test
  void everyIterationOfEveryForkIsOneSample() throws Exception {
    ResultUpload hash = result(Golden.convert("jmh", GC), "bench.StringBench.hash[size=10]", "throughput");

    assertThat(hash.samples()).containsExactly(10537637.909446202, 36653786.754741184, 44785731.34855916,
        45283692.85954593, 9978553.879918745, 9809829.63230708);
  }

  @Test
  void averageTimeIsLowerIsBetterWithRawDataFlattened() throws Exception {
    ResultUpload concat = result(Golden.convert("jmh", GC), "bench.StringBench.concat[size=1000]", "average-time");

    assertThat(concat.unit()).isEqualTo("ns/op");
    assertThat(concat.direction()).isEqualTo("lower_is_better");
    assertThat(concat.samples()).isEqualTo(flatten(Golden.tree(GC).at("/3/primaryMetric/rawData")));
  }

  @Test
  void profilerMetricsBecomeFurtherMetricsOfTheBenchmark() throws Exception {
    RunUpload run = Golden.convert("jmh", GC);

    ResultUpload alloc = result(run, "bench.StringBench.concat[size=10]", "gc.alloc.rate.norm");
    assertThat(alloc.unit()).isEqualTo("B/op");
    assertThat(alloc.direction()).isEqualTo("lower_is_better");
    assertThat(alloc.samples()).isEqualTo(flatten(Golden.tree(GC).at("/2/secondaryMetrics/gc.alloc.rate.norm/rawData")));
    assertThat(run.results()).filteredOn(r -> r.benchmark().equals("bench.StringBench.concat[size=10]"))
        .extracting(ResultUpload::metric)
        .containsExactly("average-time", "gc.alloc.rate", "gc.alloc.rate.norm", "gc.count", "gc.time");
  }

  @Test
  void sampleModeTakesEachIterationsHistogramMean() throws Exception {
    RunUpload run = Golden.convert("jmh", "jmh/sample-ss.json");
    JsonNode histograms = Golden.tree("jmh/sample-ss.json").at("/0/primaryMetric/rawDataHistogram/0");

    ResultUpload sample = result(run, "bench.StringBench.concat[size=10]", "sample-time");
    assertThat(sample.unit()).isEqualTo("us/op");
    assertThat(sample.direction()).isEqualTo("lower_is_better");
    assertThat(sample.samples()).hasSize(2);
    assertThat(sample.samples().get(0)).isCloseTo(histogramMean(histograms.get(0)), within(1e-12));
    assertThat(sample.samples().get(1)).isCloseTo(histogramMean(histograms.get(1)), within(1e-12));
  }

  @Test
  void singleShotAndSampleOfTheSameBenchmarkAreSeparateMetrics() throws Exception {
    RunUpload run = Golden.convert("jmh", "jmh/sample-ss.json");

    ResultUpload ss = result(run, "bench.StringBench.concat[size=10]", "single-shot-time");
    assertThat(ss.samples()).containsExactly(16.875, 11.006);
    assertThat(ss.direction()).isEqualTo("lower_is_better");
    assertThat(run.results()).extracting(ResultUpload::metric).doesNotContain("p0.50 (sample)");
  }

  @Test
  void sampleModePercentilesAreNamedAfterTheModeSoTheServerKeepsThemSecondary() throws Exception {
    RunUpload run = Golden.convert("jmh", "jmh/sample-ss.json");

    assertThat(run.results()).filteredOn(r -> r.metric().startsWith("sample-time:"))
        .extracting(ResultUpload::metric).containsExactly("sample-time:p0.00", "sample-time:p0.50",
            "sample-time:p0.90", "sample-time:p0.95", "sample-time:p0.99", "sample-time:p0.999",
            "sample-time:p0.9999", "sample-time:p1.00");
    ResultUpload median = result(run, "bench.StringBench.concat[size=10]", "sample-time:p0.50");
    assertThat(median.unit()).isEqualTo("us/op");
    assertThat(median.samples())
        .isEqualTo(flatten(Golden.tree("jmh/sample-ss.json").at("/0/secondaryMetrics/p0.50/rawData")));
  }

  @Test
  void classAndParamNamesLongerThan128CharactersAreKeptWhole() throws Exception {
    RunUpload run = Golden.convert("jmh", "jmh/long-name-ns.json");

    String name = "bench.LongNameBench.concatenateTheConfiguredTextWithItsSize[configuration="
        + Golden.tree("jmh/long-name-ns.json").at("/0/params/configuration").asText() + ",size=10]";
    assertThat(name).hasSizeGreaterThan(128);
    assertThat(result(run, name, "average-time").unit()).isEqualTo("ns/op");
    assertThat(Golden.convert("jmh", "jmh/long-name-us.json").results().get(0).unit())
        .as("-tu us: the same benchmark in another unit, which the server converts").isEqualTo("us/op");
  }

  @Test
  void jvmDescriptionBecomesRunAttributes() throws Exception {
    RunUpload run = Golden.convert("jmh", GC);

    assertThat(run.attributes()).containsEntry("jmh.jmhVersion", "1.37").containsEntry("jmh.jdkVersion", "17.0.15");
    assertThat(run.suite()).isEqualTo("jmh");
  }

  @Test
  void olderJmhMiddleDotBeforeProfilerMetricsIsDropped() throws Exception {
    String json = """
        [{"jmhVersion": "1.21", "benchmark": "a.B.c", "mode": "avgt",
          "primaryMetric": {"scoreUnit": "ns/op", "rawData": [[1.0, 2.0]]},
          "secondaryMetrics": {"·gc.alloc.rate": {"scoreUnit": "MB/sec", "rawData": [[5.0, 6.0]]}}}]
        """;
    RunUpload run = Formats.byName("jmh").convert(json.getBytes(UTF_8), "old.json",
        Golden.CONTEXT);

    assertThat(result(run, "a.B.c", "gc.alloc.rate").samples()).containsExactly(5.0, 6.0);
  }

  @Test
  void benchmarkRunInTwoModesKeepsItsProfilerMetricsApart() throws Exception {
    String entry = """
        {"benchmark": "a.B.c", "mode": "%s", "primaryMetric": {"scoreUnit": "%s", "rawData": [[1.0, 2.0]]},
         "secondaryMetrics": {"gc.count": {"scoreUnit": "counts", "rawData": [[0.0, 1.0]]}}}""";
    String json = "[" + entry.formatted("thrpt", "ops/s") + "," + entry.formatted("avgt", "s/op") + "]";
    RunUpload run = Formats.byName("jmh").convert(json.getBytes(UTF_8), "two.json",
        Golden.CONTEXT);

    assertThat(run.results()).extracting(ResultUpload::metric)
        .containsExactly("throughput", "gc.count (thrpt)", "average-time", "gc.count (avgt)");
  }

  private static List<Double> flatten(JsonNode forks) {
    List<Double> values = new ArrayList<>();
    forks.forEach(fork -> values.addAll(Golden.doubles(fork)));
    assertThat(values).isNotEmpty();
    return values;
  }

  private static double histogramMean(JsonNode bins) {
    double sum = 0;
    double count = 0;
    for (JsonNode bin : bins) {
      sum += bin.get(0).doubleValue() * bin.get(1).doubleValue();
      count += bin.get(1).doubleValue();
    }
    return sum / count;
  }
}
