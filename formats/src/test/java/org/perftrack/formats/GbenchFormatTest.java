package org.perftrack.formats;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.perftrack.formats.Golden.result;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.BenchmarkFailure;
import org.perftrack.wire.RunUpload.ResultUpload;
import com.fasterxml.jackson.databind.JsonNode;

class GbenchFormatTest {

  @Test
  void repetitionsOfOneRunNameBecomeItsSamplesAndAggregatesAreIgnored() throws Exception {
    RunUpload run = Golden.convert("gbench", "gbench/repetitions.json");

    assertThat(run.results()).extracting(ResultUpload::benchmark, ResultUpload::metric).containsExactly(
        tuple("BM_StringCopy/64", "real-time"),
        tuple("BM_StringCopy/64", "cpu-time"),
        tuple("BM_StringCopy/4096", "real-time"),
        tuple("BM_StringCopy/4096", "cpu-time"));
    ResultUpload real = result(run, "BM_StringCopy/64", "real-time");
    assertThat(real.samples()).containsExactly(9.915135518798513, 10.037907197136622, 10.066355168148595,
        10.261373078352213, 9.841871305353179);
    assertThat(real.samples()).doesNotContain(10.024528453557824); // the _mean aggregate
    assertThat(real.unit()).isEqualTo("ns");
    assertThat(real.direction()).isEqualTo("lower_is_better");
  }

  /** Issue 13 item 2: {@code --benchmark_report_aggregates_only=true}, written by Google Benchmark 1.7.1. */
  @Test
  void aFileOfAggregatesOnlyBecomesSummaryOnlyResultsWithNOfTheRepetitions() throws Exception {
    RunUpload run = Golden.convert("gbench", "gbench/aggregates-only.json");

    assertThat(run.results()).extracting(ResultUpload::benchmark, ResultUpload::metric).containsExactly(
        tuple("BM_StringCopy/64", "real-time"), tuple("BM_StringCopy/64", "cpu-time"));
    ResultUpload real = result(run, "BM_StringCopy/64", "real-time");
    assertThat(real.samples()).isNull();
    assertThat(real.n()).isEqualTo(3);
    assertThat(real.mean()).isEqualTo(1.0443700459868449e+01);
    assertThat(real.median()).isEqualTo(1.0422673407645819e+01);
    assertThat(real.stddev()).isEqualTo(2.7139520263572892e-01);
    assertThat(real.min()).isNull();
    assertThat(real.max()).isNull();
    assertThat(real.unit()).isEqualTo("ns");
    ResultUpload cpu = result(run, "BM_StringCopy/64", "cpu-time");
    assertThat(cpu.mean()).isEqualTo(9.7222938779739305e+00);
    assertThat(cpu.stddev()).as("the stddev aggregate, not the cv").isEqualTo(0.34724577763182524);
    assertThat(run.attributes().get("note")).contains("aggregates only", "summaries");
  }

  @Test
  void aFileOfAggregatesOnlyWithoutRunTypeIsReadByTheNameSuffixes() throws Exception {
    RunUpload run = Golden.convert("gbench", "gbench/old-1.4-aggregates-only.json");

    assertThat(run.results()).extracting(ResultUpload::benchmark, ResultUpload::metric, ResultUpload::n)
        .containsExactly(
            tuple("BM_StringCopy/64", "real-time", 5), tuple("BM_StringCopy/64", "cpu-time", 5),
            tuple("BM_StringCopy/4096", "real-time", 5), tuple("BM_StringCopy/4096", "cpu-time", 5));
    ResultUpload real = result(run, "BM_StringCopy/4096", "real-time");
    assertThat(real.mean()).isEqualTo(53.05491234877708);
    assertThat(real.median()).isEqualTo(52.74531925397814);
    assertThat(real.stddev()).isEqualTo(0.9177412346660168);
    assertThat(real.samples()).isNull();
  }

  @Test
  void aBenchmarkWithRepetitionsKeepsItsSamplesAndAnotherOfAggregatesOnlyIsASummary() throws Exception {
    JsonNode file = Golden.tree("gbench/repetitions.json");
    com.fasterxml.jackson.databind.node.ArrayNode kept = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
    for (JsonNode entry : file.get("benchmarks")) {
      boolean aggregate = "aggregate".equals(entry.path("run_type").asText());
      if (entry.path("run_name").asText().equals("BM_StringCopy/64") || aggregate) {
        kept.add(entry);
      }
    }
    ((com.fasterxml.jackson.databind.node.ObjectNode) file).set("benchmarks", kept);

    RunUpload run = Formats.byName("gbench").convert(file.toString().getBytes(UTF_8), "mixed.json", Golden.CONTEXT);

    assertThat(result(run, "BM_StringCopy/64", "real-time").samples()).hasSize(5);
    ResultUpload summary = result(run, "BM_StringCopy/4096", "real-time");
    assertThat(summary.samples()).isNull();
    assertThat(summary.n()).isEqualTo(5);
  }

  @Test
  void cpuTimeSamplesAreTheCpuTimesOfTheIterationEntries() throws Exception {
    RunUpload run = Golden.convert("gbench", "gbench/repetitions.json");

    assertThat(result(run, "BM_StringCopy/4096", "cpu-time").samples())
        .isEqualTo(fieldOfIterations(Golden.tree("gbench/repetitions.json"), "BM_StringCopy/4096", "cpu_time"));
  }

  @Test
  void throughputCountersAreHigherIsBetterAndTimesKeepTheirUnit() throws Exception {
    RunUpload run = Golden.convert("gbench", "gbench/counters.json");
    JsonNode file = Golden.tree("gbench/counters.json");

    ResultUpload bytes = result(run, "BM_Memcpy/8192", "bytes-per-second");
    assertThat(bytes.unit()).isEqualTo("B/s");
    assertThat(bytes.direction()).isEqualTo("higher_is_better");
    assertThat(bytes.samples()).isEqualTo(fieldOfIterations(file, "BM_Memcpy/8192", "bytes_per_second"));
    ResultUpload items = result(run, "BM_Memcpy/8192", "items-per-second");
    assertThat(items.unit()).isEqualTo("items/s");
    assertThat(items.direction()).isEqualTo("higher_is_better");
    assertThat(items.samples()).hasSize(3);
    assertThat(result(run, "BM_Memcpy/8192", "real-time").unit()).isEqualTo("us");
  }

  @Test
  void contextGivesTheStartTimeAndRunAttributes() throws Exception {
    RunUpload run = Golden.convert("gbench", "gbench/repetitions.json");

    assertThat(run.startedAt()).isEqualTo(Instant.parse("2026-11-30T07:01:25Z"));
    assertThat(run.suite()).isEqualTo("gbench");
    assertThat(run.attributes()).containsEntry("gbench.host_name", "vm").containsEntry("gbench.num_cpus", "2")
        .containsEntry("gbench.library_build_type", "debug");
  }

  @Test
  void benchmarkSkippedWithAnErrorIsAFailureNotZeroTimes() throws Exception {
    RunUpload run = Golden.convert("gbench", "gbench/with-error.json");

    assertThat(run.failures()).containsExactly(
        new BenchmarkFailure("BM_OpenMissing", "fopen(/nonexistent/file) failed"));
    assertThat(run.results()).extracting(ResultUpload::benchmark).containsOnly("BM_Increment");
    assertThat(result(run, "BM_Increment", "real-time").samples()).hasSize(3);
  }

  @Test
  void benchmarkSkippedWithAMessageIsAFailureAndMemoryFiguresAreMetrics() throws Exception {
    String json = """
        {"context": {"date": "2026-11-30 07:01:25"}, "benchmarks": [
          {"name": "BM_Raw", "run_name": "BM_Raw", "run_type": "iteration", "repetitions": 1, "repetition_index": 0,
           "threads": 1, "error_occurred": false, "error_message": "needs root", "iterations": 0,
           "real_time": 0, "cpu_time": 0, "time_unit": "ns"},
          {"name": "BM_Alloc", "run_name": "BM_Alloc", "run_type": "iteration", "repetitions": 1,
           "repetition_index": 0, "threads": 1, "iterations": 100, "real_time": 5.0, "cpu_time": 4.9,
           "time_unit": "us", "allocs_per_iter": 2.0, "max_bytes_used": 4096, "my_counter": 7}]}""";
    RunUpload run = Formats.byName("gbench").convert(json.getBytes(UTF_8), "mem.json", Golden.CONTEXT);

    assertThat(run.failures()).containsExactly(new BenchmarkFailure("BM_Raw", "needs root"));
    assertThat(result(run, "BM_Alloc", "allocs-per-iteration").direction()).isEqualTo("lower_is_better");
    assertThat(result(run, "BM_Alloc", "max-bytes-used").samples()).containsExactly(4096.0);
    assertThat(result(run, "BM_Alloc", "counter:my_counter").samples()).containsExactly(7.0);
    assertThat(run.startedAt()).as("a date without an offset is read as UTC").isEqualTo(Instant.parse("2026-11-30T07:01:25Z"));
    assertThat(run.attributes()).containsEntry("gbench.date", "2026-11-30 07:01:25");
  }

  @Test
  void userCountersAreSecondaryMetricsAndComplexityFitsAreIgnored() throws Exception {
    RunUpload run = Golden.convert("gbench", "gbench/complexity-counters.json");
    JsonNode file = Golden.tree("gbench/complexity-counters.json");

    assertThat(run.results()).extracting(ResultUpload::benchmark).containsOnly("BM_Sort/64", "BM_Sort/256", "BM_Sort/1024");
    ResultUpload comparisons = result(run, "BM_Sort/256", "counter:comparisons");
    assertThat(comparisons.samples()).isEqualTo(fieldOfIterations(file, "BM_Sort/256", "comparisons"));
    assertThat(comparisons.unit()).isEqualTo("1");
    assertThat(result(run, "BM_Sort/1024", "counter:elements").samples()).containsExactly(1024.0);
  }

  @Test
  void oldFilesWithoutRunTypeSkipAggregatesByNameAndReadTheirLocalDate() throws Exception {
    RunUpload run = Golden.convert("gbench", "gbench/old-1.4.json");
    JsonNode file = Golden.tree("gbench/old-1.4.json");

    assertThat(run.results()).extracting(ResultUpload::benchmark).containsOnly("BM_StringCopy/64",
        "BM_StringCopy/4096", "BM_Sort/64", "BM_Sort/256", "BM_Sort/1024");
    List<Double> repetitions = new ArrayList<>();
    for (JsonNode b : file.get("benchmarks")) {
      if (b.get("name").asText().equals("BM_StringCopy/64")) {
        repetitions.add(b.get("real_time").doubleValue());
      }
    }
    assertThat(result(run, "BM_StringCopy/64", "real-time").samples()).hasSize(5).isEqualTo(repetitions);
    assertThat(run.startedAt()).isEqualTo(Instant.parse("2019-11-29T21:26:59Z"));
  }

  @Test
  void anInfiniteRateIsDroppedAndNotedAndTheOtherValuesKept() throws Exception {
    RunUpload run = Golden.convert("gbench", "gbench/infinite-rate.json");

    assertThat(result(run, "BM_Memcpy/8192", "items-per-second").samples()).hasSize(2).allMatch(Double::isFinite);
    assertThat(result(run, "BM_Memcpy/8192", "bytes-per-second").samples()).hasSize(2);
    assertThat(result(run, "BM_Memcpy/8192", "real-time").samples()).hasSize(3);
    assertThat(run.attributes().get("note")).contains("BM_Memcpy/8192: 1 of 3 items_per_second values were infinite");
  }

  private static List<Double> fieldOfIterations(JsonNode file, String runName, String field) {
    List<Double> values = new ArrayList<>();
    for (JsonNode b : file.get("benchmarks")) {
      if (b.get("run_name").asText().equals(runName) && b.get("run_type").asText().equals("iteration")) {
        values.add(b.get(field).doubleValue());
      }
    }
    return values;
  }
}
