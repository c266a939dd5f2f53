package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.FormatNames;
import tools.jackson.databind.JsonNode;

/** Other tools' files sent as they are with ?format=, through HTTP into the embedded PostgreSQL. */
class ForeignFormatUploadTest extends IntegrationTest {

  private record Stored(String benchmark, String metric, String unit, String direction, List<Double> samples) {}

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
      "hyperfine, hyperfine/basic.json, true, wall-time, s, lower_is_better, /results/1/times",
      "gbench, gbench/counters.json, BM_Memcpy/8192, items-per-second, items/s, higher_is_better, ",
      "jmh, jmh/thrpt-avgt-gc.json, 'bench.StringBench.hash[size=10]', throughput, ops/s, higher_is_better, /0/primaryMetric/rawData/0",
      "pytest-benchmark, pytest-benchmark/benchmark.json, 'tests/test_perf.py::test_sort[100]', time, s, lower_is_better, /benchmarks/0/stats/data"})
  void toolFileIsStoredAsSeriesWithItsRawSamples(String format, String file, String benchmark, String metric,
      String unit, String direction, String samplesAt) {
    String product = unique("demo");
    String machine = unique("ci");

    Http.Response r = upload(format, product, "1.0.0", machine, golden(file));

    assertThat(r.status()).as(r.body()).isEqualTo(201);
    List<Stored> stored = stored(UUID.fromString(r.json().get("id").asString()));
    assertThat(stored).filteredOn(s -> s.benchmark().equals(benchmark) && s.metric().equals(metric))
        .singleElement()
        .satisfies(s -> {
          assertThat(s.unit()).isEqualTo(unit);
          assertThat(s.direction()).isEqualTo(direction);
          if (samplesAt != null) {
            assertThat(s.samples()).startsWith(doubles(tree(file).at(samplesAt)).toArray(Double[]::new));
          } else {
            assertThat(s.samples()).hasSize(3);
          }
        });
    assertThat(jdbc.sql("SELECT suite FROM run WHERE id = ?").param(UUID.fromString(r.json().get("id").asString()))
        .query(String.class).single()).isEqualTo(format);
  }

  @Test
  void storedSeriesCanBeReadBackThroughTheSeriesApi() {
    String product = unique("demo");
    String machine = unique("ci");
    assertThat(upload("hyperfine", product, "1.0.0", machine, golden("hyperfine/basic.json")).status()).isEqualTo(201);

    Http.Response series = http().get("/api/v1/series?product=" + product + "&machine=" + machine
        + "&benchmark=" + URLEncoder.encode("sleep 0.01", StandardCharsets.UTF_8) + "&metric=wall-time");

    assertThat(series.status()).as(series.body()).isEqualTo(200);
    JsonNode point = series.json().get("points").get(0);
    assertThat(point.get("version").asString()).isEqualTo("1.0.0");
    assertThat(doubles(point.get("samples"))).isEqualTo(doubles(tree("hyperfine/basic.json").at("/results/0/times")));
  }

  @Test
  void sameFileSentAgainIsStoredOnce() {
    String product = unique("demo");
    String machine = unique("ci");
    byte[] file = golden("gbench/repetitions.json");

    Http.Response first = upload("gbench", product, "2.0", machine, file);
    Http.Response again = upload("gbench", product, "2.0", machine, file);

    assertThat(first.status()).isEqualTo(201);
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json().get("id").asString()).isEqualTo(first.json().get("id").asString());
    assertThat(runs(product)).isEqualTo(1);
  }

  @ParameterizedTest(name = "{1} as {0}")
  @CsvSource({
      "hyperfine, bad/hyperfine-truncated.json, format 'hyperfine': body: truncated JSON",
      "hyperfine, gbench/counters.json, format 'hyperfine': body: this looks like a Google Benchmark file, not hyperfine",
      "gbench, bad/gbench-nan.json, format 'gbench': body: benchmarks[1].real_time is NaN",
      "jmh, bad/empty.json, format 'jmh': body: the file is empty",
      "benchmarkdotnet, vitest/vitest-1.6.1.json, format 'benchmarkdotnet': body: this looks like a vitest bench file",
      "catch2, go-bench/count3-go1.19.txt, format 'catch2': body: this looks like a go test -bench file",
      "criterion, criterion/0.3.6/criterion/sum/100/new/sample.json, format 'criterion': body: this is one file of a Criterion.rs folder"})
  void badFileIsA400NamingTheFormatAndTheProblemAndStoresNothing(String format, String file, String detail) {
    String product = unique("demo");

    Http.Response r = upload(format, product, "1.0.0", unique("ci"), golden(file));

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(r.json().get("detail").asString()).startsWith(detail);
    assertThat(r.json().get("fields").get(0).get("field").asString()).isEqualTo("body");
    assertThat(products(product)).isZero();
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource({
      "go-bench, go-bench/benchmem-cpu-go1.19.txt, BenchmarkRepeat/n=16-2, throughput, MB/s, higher_is_better, 2",
      "cargo-bench, cargo-bench/rust-1.95.txt, tests::bench_fib_20, time-per-iteration, ns, lower_is_better, 1",
      "criterion, criterion/0.3.6/criterion/, sum/1000, elements-per-second, elements/s, higher_is_better, 10",
      "benchmarkdotnet, benchmarkdotnet/full-0.13.json, Sample.Benchmarks.Sum, time-per-op, ns, lower_is_better, 3",
      "catch2, catch2/catch2-2.13.10.xml, fib 20, time, ns, lower_is_better, 0",
      "asv, asv/results/, bench_sort.MemSuite.mem_list, memory, B, lower_is_better, 1",
      "bmf, bmf/latency-throughput.json, tests::parse_small, throughput, ops/s, higher_is_better, 1",
      "vitest, vitest/vitest-3.2.4.json, math.bench.js > sort > toSorted, time, ms, lower_is_better, 0",
      "pyperf, pyperf/suite-2.10.json, sort, time, s, lower_is_better, 6",
      "benchmarkjs, benchmarkjs/benchmark-2.1.4.json, fib(15), time-per-op, s, lower_is_better, 9"})
  void everyToolsFileIsStoredWithItsUnitDirectionAndSamples(String format, String file, String benchmark,
      String metric, String unit, String direction, int samples) {
    String product = unique("demo");
    byte[] body = file.endsWith("/") ? GoldenFiles.zip(file.substring(0, file.length() - 1)) : golden(file);

    Http.Response r = upload(format, product, "1.0.0", unique("ci"), body);

    assertThat(r.status()).as(r.body()).isEqualTo(201);
    assertThat(stored(UUID.fromString(r.json().get("id").asString())))
        .filteredOn(s -> s.benchmark().equals(benchmark) && s.metric().equals(metric))
        .singleElement()
        .satisfies(s -> {
          assertThat(s.unit()).isEqualTo(unit);
          assertThat(s.direction()).isEqualTo(direction);
          assertThat(s.samples()).hasSize(samples);
        });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"application/zip", "application/x-www-form-urlencoded", "application/octet-stream"})
  void aFolderZippedByHandIsTakenWhateverItsContentType(String type) {
    String product = unique("demo");

    Http.Response r = http().postBytes(query("criterion", product, "1", unique("ci")),
        GoldenFiles.zip("criterion/0.3.6/criterion"), type, TOKEN);

    assertThat(r.status()).as(r.body()).isEqualTo(201);
    assertThat(stored(UUID.fromString(r.json().get("id").asString()))).extracting(Stored::benchmark)
        .contains("fib 15", "sum/100", "sum/1000");
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource({
      "gbench, gbench/repetitions.json, Google Benchmark",
      "go-bench, go-bench/count3-go1.19.txt, go test -bench",
      "catch2, catch2/catch2-v3-layout.xml, Catch2 XML",
      "pyperf, pyperf/timeit-2.10.json, pyperf"})
  void aToolFileSentWithoutAFormatIsAnsweredWithTheFormatToAdd(String format, String file, String label) {
    String product = unique("demo");

    Http.Response r = http().postBytes("/api/v1/runs?product=" + product, golden(file), "application/json", TOKEN);

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().get("fields").get(0).get("field").asString()).isEqualTo("format");
    assertThat(r.json().get("fields").get(0).get("message").asString())
        .startsWith("the body looks like a " + label + " file: add ?format=" + format + "&product=");
    assertThat(products(product)).isZero();
  }

  @ParameterizedTest(name = "{1} as {3}")
  @CsvSource({
      "go-bench, go-bench/count3-go1.19.txt, go test -bench, text/plain",
      "benchmarkjs, benchmarkjs/benchmark-2.1.4-console.txt, Benchmark.js, text/plain",
      "catch2, catch2/catch2-v3-layout.xml, Catch2 XML, application/xml",
      "gbench, gbench/repetitions.json, Google Benchmark, application/octet-stream"})
  void aToolFileWithoutAFormatIsAnsweredWithTheFormatToAddWhateverItsContentType(String format, String file,
      String label, String contentType) {
    String product = unique("demo");

    Http.Response r = http().postBytes("/api/v1/runs?product=" + product, golden(file), contentType, TOKEN);

    assertThat(r.status()).as(r.body()).isEqualTo(400);
    assertThat(r.json().get("fields").get(0).get("message").asString())
        .startsWith("the body looks like a " + label + " file: add ?format=" + format + "&product=");
    assertThat(products(product)).isZero();
  }

  @Test
  void missingTagsAreNamedAsQueryParameters() {
    Http.Response r = http().postBytes("/api/v1/runs?format=hyperfine&product=demo", golden("hyperfine/basic.json"),
        "application/json", TOKEN);

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().get("fields").findValuesAsString("field")).containsExactly("version", "machine");
  }

  @Test
  void unknownFormatListsTheKnownOnes() {
    Http.Response r = upload("criterium", unique("demo"), "1", unique("ci"), golden("hyperfine/basic.json"));

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().get("detail").asString())
        .isEqualTo("format: unknown format 'criterium'; known formats: " + String.join(", ", FormatNames.ALL));
  }

  @Test
  void fileSentByCurlWithoutAContentTypeIsStillTakenAsItIs() {
    String product = unique("demo");
    // curl --data-binary @file labels the body application/x-www-form-urlencoded unless told otherwise
    Http.Response r = http().postBytes(query("hyperfine", product, "1", unique("ci")), golden("hyperfine/basic.json"),
        "application/x-www-form-urlencoded", TOKEN);

    assertThat(r.status()).as(r.body()).isEqualTo(201);
    assertThat(stored(UUID.fromString(r.json().get("id").asString()))).filteredOn(s -> s.metric().equals("wall-time"))
        .extracting(Stored::benchmark).containsExactlyInAnyOrder("sleep 0.01", "true");
  }

  @Test
  void uploadsNeedAToken() {
    String product = unique("demo");
    Http.Response r = http().postBytes(query("hyperfine", product, "1", unique("ci")), golden("hyperfine/basic.json"),
        "application/json", null);

    assertThat(r.status()).isEqualTo(401);
    assertThat(products(product)).isZero();
  }

  @Test
  void ownFormatThroughTheQueryKeepsTheFilesIdAndTakesTheTags() {
    String product = unique("demo");
    String id = UUID.randomUUID().toString();
    String run = """
        {"id": "%s", "product": "ignored", "version": "0.1", "machine": {"name": "m"}, "suite": "posix",
         "results": [{"benchmark": "fork", "metric": "time-per-op", "unit": "us",
                      "direction": "lower_is_better", "samples": [75.0, 76.0]}]}""".formatted(id);

    Http.Response r = upload("perftrack", product, "0.2", unique("ci"), run.getBytes(StandardCharsets.UTF_8));

    assertThat(r.status()).as(r.body()).isEqualTo(201);
    assertThat(r.json().get("id").asString()).isEqualTo(id);
    assertThat(products(product)).isOne();
  }

  @Test
  void aUnitChangeInTheMiddleOfASeriesKeepsOneSeriesInItsFirstUnit() {
    String product = unique("demo");
    String machine = unique("ci");
    assertThat(upload("gbench", product, "1.0", machine, golden("gbench/unit-ns.json")).status()).isEqualTo(201);

    Http.Response us = upload("gbench", product, "1.1", machine, golden("gbench/unit-us.json"));

    assertThat(us.status()).as(us.body()).isEqualTo(201);
    Stored real = stored(UUID.fromString(us.json().get("id").asString())).stream()
        .filter(s -> s.metric().equals("real-time")).findFirst().orElseThrow();
    assertThat(real.unit()).isEqualTo("ns");
    List<Double> microseconds = new ArrayList<>();
    for (JsonNode b : tree("gbench/unit-us.json").get("benchmarks")) {
      if (b.get("run_type").asString().equals("iteration")) {
        microseconds.add(b.get("real_time").doubleValue());
      }
    }
    assertThat(real.samples()).hasSize(3);
    for (int i = 0; i < 3; i++) {
      assertThat(real.samples().get(i)).isCloseTo(microseconds.get(i) * 1000, org.assertj.core.api.Assertions.within(1e-6));
    }
    assertThat(jdbc.sql("SELECT count(*) FROM series s JOIN product p ON p.id = s.product_id WHERE p.name = ?"
        + " AND s.metric = 'real-time'").param(product).query(Long.class).single()).isOne();
  }

  @Test
  void jmhTimeUnitChangeAndALongParamNameKeepOneSeries() {
    String product = unique("demo");
    String machine = unique("ci");
    assertThat(upload("jmh", product, "1.0", machine, golden("jmh/long-name-ns.json")).status()).isEqualTo(201);

    Http.Response us = upload("jmh", product, "1.1", machine, golden("jmh/long-name-us.json"));

    assertThat(us.status()).as(us.body()).isEqualTo(201);
    Stored stored = stored(UUID.fromString(us.json().get("id").asString())).get(0);
    assertThat(stored.benchmark()).hasSizeGreaterThan(128).endsWith(",size=10]");
    assertThat(stored.unit()).isEqualTo("ns/op");
    assertThat(stored.samples().get(0))
        .isCloseTo(tree("jmh/long-name-us.json").at("/0/primaryMetric/rawData/0/0").doubleValue() * 1000,
            org.assertj.core.api.Assertions.within(1e-6));
  }

  @Test
  void aUnitOfAnotherDimensionIsStillA400NamingBothUnits() {
    String product = unique("demo");
    String machine = unique("ci");
    assertThat(upload("gbench", product, "1.0", machine, golden("gbench/unit-ns.json")).status()).isEqualTo(201);
    String perftrack = """
        {"product": "p", "version": "2.0", "machine": {"name": "m"},
         "results": [{"benchmark": "BM_Memcpy/8192", "metric": "real-time", "unit": "MB/s",
                      "direction": "lower_is_better", "samples": [1.0]}]}""";

    Http.Response r = upload("perftrack", product, "2.0", machine, perftrack.getBytes(StandardCharsets.UTF_8));

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().get("fields").get(0).get("message").asString())
        .contains("is 'MB/s' but earlier runs").contains("used 'ns'").contains("a unit of time is needed");
  }

  @Test
  void aHyperfineCommandOfHundredsOfCharactersIsStored() {
    String product = unique("demo");

    Http.Response r = upload("hyperfine", product, "1.0", unique("ci"), golden("hyperfine/long-command.json"));

    assertThat(r.status()).as(r.body()).isEqualTo(201);
    assertThat(stored(UUID.fromString(r.json().get("id").asString()))).extracting(Stored::benchmark).containsOnly(
        tree("hyperfine/long-command.json").at("/results/0/command").asString());
  }

  @Test
  void aGoogleBenchmarkFileOfAggregatesOnlyIsStoredAsSummariesOfTheRepetitions() {
    String product = unique("demo");

    Http.Response r = upload("gbench", product, "1.0", unique("ci"), golden("gbench/aggregates-only.json"));

    assertThat(r.status()).as(r.body()).isEqualTo(201);
    var row = jdbc.sql("""
        SELECT cardinality(x.samples) AS samples, x.n, x.mean, x.stddev, x.min, x.median, x.max
        FROM result x JOIN series s ON s.id = x.series_id WHERE x.run_id = ? AND s.benchmark = ? AND s.metric = ?""")
        .params(UUID.fromString(r.json().get("id").asString()), "BM_StringCopy/64", "real-time").query().singleRow();
    JsonNode mean = tree("gbench/aggregates-only.json").at("/benchmarks/0");
    JsonNode median = tree("gbench/aggregates-only.json").at("/benchmarks/1");
    JsonNode stddev = tree("gbench/aggregates-only.json").at("/benchmarks/2");
    assertThat(row.get("samples")).isEqualTo(0);
    assertThat(row.get("n")).isEqualTo(mean.get("repetitions").intValue());
    assertThat(row.get("mean")).isEqualTo(mean.get("real_time").doubleValue());
    assertThat(row.get("median")).isEqualTo(median.get("real_time").doubleValue());
    assertThat(row.get("stddev")).isEqualTo(stddev.get("real_time").doubleValue());
    assertThat(row.get("min")).isNull();
  }

  @Test
  void aPytestBenchmarkAutosaveIsStoredAsSummariesAndShownAsSuch() {
    String product = unique("demo");
    String machine = unique("ci");

    Http.Response r = upload("pytest-benchmark", product, "1.0", machine, golden("pytest-benchmark/autosave.json"));

    assertThat(r.status()).as(r.body()).isEqualTo(201);
    JsonNode stats = tree("pytest-benchmark/autosave.json").at("/benchmarks/1/stats");
    var row = jdbc.sql("""
        SELECT cardinality(x.samples) AS samples, x.n, x.mean, x.stddev, x.min, x.median, x.max
        FROM result x JOIN series s ON s.id = x.series_id WHERE x.run_id = ? AND s.benchmark = ?""")
        .params(UUID.fromString(r.json().get("id").asString()), "tests/test_perf.py::test_sort[10000]")
        .query().singleRow();
    assertThat(row.get("samples")).isEqualTo(0);
    assertThat(row.get("n")).isEqualTo(stats.get("rounds").intValue());
    assertThat(row.get("mean")).isEqualTo(stats.get("mean").doubleValue());
    assertThat(row.get("stddev")).isEqualTo(stats.get("stddev").doubleValue());
    assertThat(row.get("median")).isEqualTo(stats.get("median").doubleValue());
    String benchmark = URLEncoder.encode("tests/test_perf.py::test_sort[10000]", StandardCharsets.UTF_8);
    JsonNode point = http().get("/api/v1/series?product=" + product + "&machine=" + machine + "&benchmark="
        + benchmark + "&metric=time").json().get("points").get(0);
    assertThat(point.get("summaryOnly").asBoolean()).isTrue();
    assertThat(point.get("mean").doubleValue()).isEqualTo(stats.get("mean").doubleValue());
    assertThat(point.get("samples")).isEmpty();
    String page = http().page("/products/" + product + "/series?benchmark=" + benchmark + "&metric=time&machine="
        + machine).body();
    assertThat(page).contains("summary only: mean");
  }

  @Test
  void pytestBenchmarkSecondsReadInTheUnitTheyNeedOnEveryPageWhileCsvAndJsonStayRaw() {
    String product = unique("demo");
    String machine = unique("ci");
    byte[] file = golden("pytest-benchmark/autosave.json");
    Http.Response first = upload("pytest-benchmark", product, "1.0", machine, file);
    byte[] again = java.util.Arrays.copyOf(file, file.length + 1);
    again[file.length] = '\n';
    Http.Response second = upload("pytest-benchmark", product, "1.1", machine, again);
    assertThat(first.status()).as(first.body()).isEqualTo(201);
    assertThat(second.status()).as(second.body()).isEqualTo(201);
    String benchmark = URLEncoder.encode("tests/test_perf.py::test_json_dumps", StandardCharsets.UTF_8);

    String series = http().page("/products/" + product + "/series?benchmark=" + benchmark + "&metric=time&machine="
        + machine).text();
    String run = http().page("/runs/" + second.json().get("id").asString()).text();
    String compare = http().page("/compare?product=" + product + "&machine=" + machine + "&base=1.0&head=1.1").text();

    for (String page : List.of(series, run, compare)) {
      // a number written with an exponent (3.816e-06), not a run id's hex digits (…-b24e-34b2…)
      assertThat(page).as("no exponent on a page").doesNotContainPattern("(?<![0-9A-Za-z-])[0-9]+(\\.[0-9]+)?[eE]-[0-9]+(?![0-9A-Za-z-])");
      assertThat(page).contains("\u00b5s");
    }
    assertThat(series).contains("summary only: mean 3.88 \u00b1 0.238"); // 3.8795e-06 ± 2.38e-07 s
    assertThat(run).contains("3.773 \u00b5s").contains("188.5 \u00b5s"); // medians of test_json_dumps, test_sort[10000]
    assertThat(compare).contains("time \u00b7 \u00b5s").contains("3.695\u20134.383"); // lowest–highest of summaries
    assertThat(http().get("/compare.csv?product=" + product + "&machine=" + machine + "&base=1.0&head=1.1").body())
        .as("CSV keeps the stored unit").contains(",tests/test_perf.py::test_json_dumps,time,s,")
        .doesNotContain("\u00b5s");
    assertThat(http().get("/api/v1/runs/" + second.json().get("id").asString()).body())
        .containsPattern("(?i)3\\.77273000026\\d*e-0?6").doesNotContain("\u00b5s");
  }

  private Http.Response upload(String format, String product, String version, String machine, byte[] file) {
    return http().postBytes(query(format, product, version, machine), file, "application/json", TOKEN);
  }

  private static String query(String format, String product, String version, String machine) {
    return "/api/v1/runs?format=" + format + "&product=" + product + "&version=" + version + "&machine=" + machine;
  }

  private List<Stored> stored(UUID runId) {
    return jdbc.sql("""
        SELECT s.benchmark, s.metric, s.unit, s.direction, x.samples
        FROM result x JOIN series s ON s.id = x.series_id
        WHERE x.run_id = ?""").param(runId)
        .query((rs, i) -> new Stored(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
            List.of((Double[]) rs.getArray(5).getArray())))
        .list();
  }

  private long runs(String product) {
    return jdbc.sql("SELECT count(*) FROM run r JOIN product p ON p.id = r.product_id WHERE p.name = ?")
        .param(product).query(Long.class).single();
  }

  private long products(String product) {
    return jdbc.sql("SELECT count(*) FROM product WHERE name = ?").param(product).query(Long.class).single();
  }

  private static byte[] golden(String file) {
    return GoldenFiles.bytes(file);
  }

  private static JsonNode tree(String file) {
    return GoldenFiles.tree(file);
  }

  private static List<Double> doubles(JsonNode array) {
    List<Double> values = new ArrayList<>();
    array.values().forEach(v -> values.add(v.doubleValue()));
    assertThat(values).isNotEmpty();
    return values;
  }
}
