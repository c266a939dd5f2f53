package org.perftrack.server.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.perftrack.server.detection.DetectionProperties;
import org.perftrack.server.detection.PointReads;
import org.perftrack.server.detection.Verdict;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Seed 000's question ("Cygwin was slower by a factor of 3x. Is that normal?"): one agent session
 * measured native Linux and two versions of the layer side by side on one machine (one batch).
 */
class OverheadTest extends IntegrationTest {

  @Autowired Overhead overhead;
  @Autowired PointReads points;

  private String layer;
  private String nativeOs;
  private String machine;

  @BeforeEach
  void oneSessionMeasuresNativeAndTheLayer() {
    layer = unique("cygwin");
    nativeOs = unique("linux");
    machine = unique("box");
    String batch = UUID.randomUUID().toString();
    upload(batched(run(nativeOs, "6.1.0", machine, result("fork", 75, 76, 74, 75, 75.5),
        result("write-64b", 1.0, 1.01, 0.99, 1.0, 1.0)), batch));
    upload(batched(run(layer, "1.5.19-4", machine, result("fork", 2325, 2330, 2320, 2322, 2328),
        result("write-64b", 18, 18.1, 17.9, 18, 18.05)), batch));
    upload(batched(run(layer, "1.5.24-2", machine, result("fork", 3375, 3380, 3370, 3372, 3378),
        result("write-64b", 48, 48.1, 47.9, 48, 48.05)), batch));
  }

  @Test
  void theApiGivesTheOverheadOfTheLayerPerBenchmarkPairedWithinTheSession() {
    Http.Response r = http().get("/api/v1/compare?base=" + nativeOs + "@6.1.0&head=" + layer + "@1.5.24-2&machine="
        + machine);

    assertThat(r.status()).isEqualTo(200);
    var rows = r.json().get("rows");
    assertThat(rows).hasSize(2);
    var fork = rows.get(0).get("benchmark").asString().equals("fork") ? rows.get(0) : rows.get(1);
    assertThat(fork.get("ratio").asDouble()).isCloseTo(45, within(0.5));
    assertThat(fork.get("paired").asBoolean()).isTrue();
    assertThat(r.json().get("head").get("product").asString()).isEqualTo(layer);
  }

  @Test
  void theComparePageShowsTheOverheadAndTheTypicalOne() {
    Http.Response r = http().page("/compare?base=" + nativeOs + "@6.1.0&head=" + layer + "@1.5.19-4&machine=" + machine);

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.body()).contains("The cost of the layer", "×30.9<", "×18<", "Typical overhead", "the middle of 2 benchmarks")
        .doesNotContain("×18.00", "(s)");
  }

  @Test
  void theSeriesPageShowsTheOverheadOfEveryVersionOverTime() {
    String body = http().page("/products/" + layer + "/series?benchmark=fork&metric=time-per-op&machine=" + machine
        + "&against=" + nativeOs + "@6.1.0").body();

    assertThat(body).contains(nativeOs + "@6.1.0", "id=\"overhead-summary\"");
    String summary = body.substring(body.indexOf("id=\"overhead-summary\""));
    assertThat(summary.indexOf("×30.9")).isGreaterThan(0).isLessThan(summary.indexOf("×44.9"));
    assertThat(summary).contains("in 1.5.19-4", "in 1.5.24-2").doesNotContain("×30.93");
  }

  @Test
  void aSideNotMeasuredOnTheMachineIsA404AndAMissingMachineA400() {
    assertThat(http().get("/api/v1/compare?base=" + nativeOs + "@5.0&head=" + layer + "@1.5.24-2&machine=" + machine)
        .status()).isEqualTo(404);
    Http.Response noMachine = http().get("/api/v1/compare?base=" + nativeOs + "@6.1.0&head=" + layer + "@1.5.24-2");
    assertThat(noMachine.status()).isEqualTo(400);
    assertThat(noMachine.body()).contains("machine");
    assertThat(http().get("/api/v1/compare?base=6.1.0&head=" + layer + "@1.5.24-2&machine=" + machine).body())
        .contains("product@version");
    assertThat(http().page("/compare?base=" + nativeOs + "@5.0&head=" + layer + "@1.5.24-2&machine=" + machine)
        .status()).isEqualTo(404);
  }

  @Test
  void theVerdictUsesTheConfiguredMinimumChangeNotTheBuiltInDefault() {
    Overhead.Side before = new Overhead.Side(layer, "1.5.19-4", machine);
    Overhead.Side after = new Overhead.Side(layer, "1.5.24-2", machine);
    DetectionProperties lenient = new DetectionProperties(List.of(), 2.0, 1.0, 12, 0.01, java.time.Duration.ofSeconds(10),
        java.time.Duration.ofMinutes(10));

    assertThat(verdict(overhead.compare(before, after), "write-64b")).as("configured 2 %").isEqualTo(Verdict.REGRESSION);
    assertThat(verdict(new Overhead(jdbc, lenient, points).compare(before, after), "write-64b"))
        .as("×2.67 is within a configured min-change of 200 %").isEqualTo(Verdict.UNCHANGED);
  }

  private static Verdict verdict(Overhead.Result r, String benchmark) {
    return r.rows().stream().filter(x -> x.benchmark().equals(benchmark)).findFirst().orElseThrow().verdict();
  }

  @Test
  void theSameVersionsOfOneProductStillCompareAsBefore() {
    assertThat(http().get("/api/v1/compare?product=" + layer + "&base=1.5.19-4&head=1.5.24-2&machine=" + machine)
        .json().get("rows")).hasSize(2);
  }

  private static RunUpload batched(RunUpload r, String batch) {
    return new RunUpload(r.id(), r.product(), r.version(), r.machine(), r.suite(), batch, r.startedAt(),
        r.finishedAt(), r.attributes(), r.results(), r.failures());
  }

  private void upload(RunUpload run) {
    assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
  }
}
