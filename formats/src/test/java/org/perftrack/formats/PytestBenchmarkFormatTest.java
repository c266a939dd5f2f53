package org.perftrack.formats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.formats.Golden.result;

import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import com.fasterxml.jackson.databind.JsonNode;

class PytestBenchmarkFormatTest {

  private static final String FILE = "pytest-benchmark/benchmark.json";

  @Test
  void benchmarksAreNamedByFullnameWithRawTimingsAsSamples() throws Exception {
    RunUpload run = Golden.convert("pytest-benchmark", FILE);

    assertThat(run.results()).extracting(ResultUpload::benchmark).containsExactly(
        "tests/test_perf.py::test_sort[100]", "tests/test_perf.py::test_sort[10000]",
        "tests/test_perf.py::test_json_dumps");
    ResultUpload sort = result(run, "tests/test_perf.py::test_sort[10000]", "time");
    assertThat(sort.unit()).isEqualTo("s");
    assertThat(sort.direction()).isEqualTo("lower_is_better");
    assertThat(sort.samples()).containsExactly(0.0002319422000027771, 0.00018790840000519892,
        0.00018916439998974965, 0.00018774019999909797, 0.0002020296000068811, 0.00015303839999205592);
    assertThat(result(run, "tests/test_perf.py::test_json_dumps", "time").samples())
        .isEqualTo(Golden.doubles(Golden.tree(FILE).at("/benchmarks/2/stats/data")));
  }

  @Test
  void machineAndCommitInfoBecomeRunAttributesAndDatetimeTheStart() throws Exception {
    RunUpload run = Golden.convert("pytest-benchmark", FILE);

    assertThat(run.attributes())
        .containsEntry("commit_info.id", "5b78858eb718649a31fb93d8dc96ca2cee41a4cd")
        .containsEntry("commit_info.branch", "main")
        .containsEntry("machine_info.python_implementation", "CPython")
        .containsEntry("machine_info.cpu.brand_raw", "AMD EPYC")
        .containsEntry("pytest-benchmark.version", "4.0.0");
    assertThat(run.startedAt()).isEqualTo(Instant.parse("2026-11-30T07:10:00.123456Z"));
    assertThat(run.suite()).isEqualTo("pytest-benchmark");
  }

  @Test
  void numericExtraInfoBecomesSecondaryMetricsOfOneSample() throws Exception {
    com.fasterxml.jackson.databind.node.ObjectNode file = (com.fasterxml.jackson.databind.node.ObjectNode) Golden.tree(FILE);
    ((com.fasterxml.jackson.databind.node.ObjectNode) file.at("/benchmarks/0/extra_info"))
        .put("bytes_allocated", 4096).put("label", "warm cache");
    RunUpload run = Formats.byName("pytest-benchmark")
        .convert(JsonInput.MAPPER.writeValueAsBytes(file), "extra.json", Golden.CONTEXT);

    ResultUpload bytes = result(run, "tests/test_perf.py::test_sort[100]", "extra:bytes_allocated");
    assertThat(bytes.samples()).containsExactly(4096.0);
    assertThat(bytes.unit()).isEqualTo("1");
    assertThat(run.results()).extracting(ResultUpload::metric).doesNotContain("extra:label");
  }

  @Test
  void anAutosaveWithoutRawTimingsBecomesSummaryOnlyResultsAndSaysSo() throws Exception {
    RunUpload run = Golden.convert("pytest-benchmark", "pytest-benchmark/autosave.json");
    JsonNode stats = Golden.tree("pytest-benchmark/autosave.json").at("/benchmarks/1/stats");

    ResultUpload sort = result(run, "tests/test_perf.py::test_sort[10000]", "time");
    assertThat(sort.samples()).isNull();
    assertThat(sort.n()).isEqualTo(stats.get("rounds").intValue());
    assertThat(sort.mean()).isEqualTo(stats.get("mean").doubleValue());
    assertThat(sort.stddev()).isEqualTo(stats.get("stddev").doubleValue());
    assertThat(sort.min()).isEqualTo(stats.get("min").doubleValue());
    assertThat(sort.median()).isEqualTo(stats.get("median").doubleValue());
    assertThat(sort.max()).isEqualTo(stats.get("max").doubleValue());
    assertThat(run.attributes().get("note")).contains("summary statistics only");
  }
}
