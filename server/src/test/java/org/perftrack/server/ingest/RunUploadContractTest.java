package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.asMap;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;

class RunUploadContractTest extends IntegrationTest {

  private long runs(String product) {
    return jdbc.sql("SELECT count(*) FROM run r JOIN product p ON p.id = r.product_id WHERE p.name = ?")
        .param(product).query(Long.class).single();
  }

  @Test
  void storesANewRunAndAnswers201WithItsId() {
    String product = unique("cygwin");
    RunUpload run = run(product, "1.5.24-2", unique("xp"), result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1));

    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);

    assertThat(r.status()).isEqualTo(201);
    assertThat(r.json().get("id").asString()).isEqualTo(run.id());
    assertThat(r.json().get("regressions").isArray()).isTrue();
    assertThat(runs(product)).isEqualTo(1);
    assertThat(jdbc.sql("SELECT samples FROM result WHERE run_id = ?").param(UUID.fromString(run.id()))
        .query((rs, i) -> (Object[]) rs.getArray(1).getArray()).single())
        .containsExactly(48.2, 47.9, 48.4, 48.0, 48.1);
  }

  @Test
  void aRunThatSendsOnlyTheMachineNameKeepsTheFactsKnownOfIt() {
    String product = unique("cygwin");
    String machine = unique("xp");
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.5.19-4", machine, result("fork", 75))), TOKEN)
        .status()).isEqualTo(201);
    RunUpload second = run(product, "1.5.24-2", machine, result("fork", 76));
    String nameOnly = json(new RunUpload(second.id(), product, "1.5.24-2", RunUpload.MachineInfo.named(machine),
        second.suite(), null, second.startedAt(), second.finishedAt(), second.attributes(), second.results(),
        second.failures()));

    assertThat(http().postJson("/api/v1/runs", nameOnly, TOKEN).status()).isEqualTo(201);

    assertThat(jdbc.sql("SELECT os || ' / ' || cpu || ' / ' || cores || ' / ' || memory_mb || ' / ' || attributes::text "
        + "FROM machine WHERE name = ?").param(machine).query(String.class).single())
        .isEqualTo("Windows XP SP2 / AMD64 3200+ / 1 / 1024 / {\"antivirus\": \"NOD32\"}");

    RunUpload third = run(product, "1.7.0-1", machine, result("fork", 77));
    String newFacts = json(new RunUpload(third.id(), product, "1.7.0-1", new RunUpload.MachineInfo(machine,
        "Windows 7 SP1", "Core i5-2400", 4, null, Map.of()), third.suite(), null, third.startedAt(),
        third.finishedAt(), third.attributes(), third.results(), third.failures()));
    Http.Response imported = http().send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create("http://localhost:" + port + "/api/v1/runs:import"))
        .header("Content-Type", "application/x-ndjson").header("Authorization", "Bearer " + TOKEN)
        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(newFacts + "\n")));
    assertThat(imported.json().get("created").asInt()).as(imported.body()).isEqualTo(1);

    assertThat(jdbc.sql("SELECT os || ' / ' || cpu || ' / ' || cores || ' / ' || memory_mb || ' / ' || attributes::text "
        + "FROM machine WHERE name = ?").param(machine).query(String.class).single())
        .as("the facts a run sends replace the known ones; those it leaves out stay")
        .isEqualTo("Windows 7 SP1 / Core i5-2400 / 4 / 1024 / {\"antivirus\": \"NOD32\"}");
  }

  @Test
  void resendingTheSameRunAnswers200AndStoresNothingTwice() {
    String product = unique("cygwin");
    String body = json(run(product, "1.5.24-2", unique("xp"), result("write-64b", 48.2, 47.9)));

    assertThat(http().postJson("/api/v1/runs", body, TOKEN).status()).isEqualTo(201);
    assertThat(http().postJson("/api/v1/runs", body, TOKEN).status()).isEqualTo(200);

    assertThat(runs(product)).isEqualTo(1);
    assertThat(jdbc.sql("SELECT count(*) FROM result x JOIN run r ON r.id = x.run_id JOIN product p ON p.id = r.product_id WHERE p.name = ?")
        .param(product).query(Long.class).single()).isEqualTo(1);
  }

  @Test
  void theSameIdWithOtherContentIsAConflict() {
    String product = unique("cygwin");
    RunUpload first = run(product, "1.5.24-2", unique("xp"), result("write-64b", 48.2, 47.9));
    RunUpload changed = new RunUpload(first.id(), product, "1.5.24-2", first.machine(), first.suite(), null, null,
        null, first.attributes(), List.of(result("write-64b", 18.0, 18.1)), List.of());

    assertThat(http().postJson("/api/v1/runs", json(first), TOKEN).status()).isEqualTo(201);
    Http.Response r = http().postJson("/api/v1/runs", json(changed), TOKEN);

    assertThat(r.status()).isEqualTo(409);
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(jdbc.sql("SELECT min(u) FROM result, unnest(samples) AS u WHERE run_id = ?")
        .param(UUID.fromString(first.id())).query(Double.class).single()).isEqualTo(47.9);
  }

  @Test
  void writesNeedAValidToken() {
    String body = json(run(unique("cygwin"), "1", unique("xp"), result("fork", 75.0)));

    Http.Response none = http().postJson("/api/v1/runs", body, null);
    Http.Response wrong = http().postJson("/api/v1/runs", body, "not-a-token");

    assertThat(none.status()).isEqualTo(401);
    assertThat(none.contentType()).startsWith("application/problem+json");
    assertThat(wrong.status()).isEqualTo(401);
    assertThat(wrong.json().get("detail").asString()).contains("not valid");
  }

  static Stream<Arguments> badRuns() {
    return Stream.of(
        bad("id", m -> m.remove("id")),
        bad("id", m -> m.put("id", "not-a-uuid")),
        bad("product", m -> m.remove("product")),
        bad("product", m -> m.put("product", "")),
        bad("product", m -> m.put("product", "x".repeat(129))),
        bad("version", m -> m.put("version", "1.5\u0007")),
        bad("machine", m -> m.remove("machine")),
        bad("machine.name", m -> machine(m).remove("name")),
        bad("machine.cores", m -> machine(m).put("cores", "one")),
        bad("machine.cores", m -> machine(m).put("cores", 0)),
        bad("batch", m -> m.put("batch", "batch-1")),
        bad("startedAt", m -> m.put("startedAt", "yesterday")),
        bad("results", m -> m.put("results", List.of())),
        bad("results", m -> m.remove("results")),
        bad("results", m -> m.put("results", "write-64b")),
        bad("results[0].benchmark", m -> result0(m).put("benchmark", "")),
        bad("results[0].metric", m -> result0(m).put("metric", "a\nb")),
        bad("results[0].direction", m -> result0(m).put("direction", "up")),
        bad("results[0].direction", m -> result0(m).remove("direction")),
        bad("results[0].unit", m -> result0(m).remove("unit")),
        bad("results[0].samples", m -> result0(m).put("samples", List.of())),
        bad("results[0].benchmark", m -> result0(m).put("benchmark", "x".repeat(1001))),
        bad("results[0].mean", m -> { result0(m).remove("samples"); result0(m).put("n", 5); }),
        bad("results[0].n", m -> { result0(m).remove("samples"); result0(m).put("n", 0); result0(m).put("mean", 1.0); }),
        bad("results[0].median", m -> { result0(m).remove("samples"); result0(m).put("n", 5); result0(m).put("mean", 2.0);
          result0(m).put("min", 1.0); result0(m).put("max", 3.0); result0(m).put("median", 4.0); }),
        bad("results[0].stddev", m -> { result0(m).remove("samples"); result0(m).put("n", 5); result0(m).put("mean", 2.0);
          result0(m).put("stddev", -1.0); }),
        bad("results[0]", m -> { result0(m).put("n", 5); result0(m).put("mean", 2.0); }),
        bad("results[0].samples[0]", m -> result0(m).put("samples", List.of("fast"))),
        bad("results[0].samples[1]", m -> result0(m).put("samples", java.util.Arrays.asList(1.0, null))),
        bad("results[0].samples[0]", m -> result0(m).put("samples", List.of(1e308 * 10))),
        bad("results[1]", m -> results(m).add(Map.copyOf(result0(m)))),
        bad("attributes", m -> m.put("attributes", Map.of("", "x"))),
        bad("machine.attributes.antivirus", m -> machine(m).put("attributes", Map.of("antivirus", "x".repeat(2000)))));
  }

  private static Arguments bad(String field, Consumer<Map<String, Object>> breakIt) {
    return Arguments.of(field, breakIt);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> machine(Map<String, Object> m) {
    return (Map<String, Object>) m.get("machine");
  }

  @SuppressWarnings("unchecked")
  private static List<Object> results(Map<String, Object> m) {
    return (List<Object>) m.get("results");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> result0(Map<String, Object> m) {
    return (Map<String, Object>) results(m).get(0);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badRuns")
  void badInputIsA400ProblemNamingTheFieldAndStoresNothing(String field, Consumer<Map<String, Object>> breakIt) {
    String product = unique("cygwin");
    Map<String, Object> body = asMap(run(product, "1.0", unique("xp"), result("write-64b", 1.0, 2.0)));
    body.put("results", new ArrayList<>(results(body)));
    breakIt.accept(body);
    String json = json(body).replace("1.0E309", "1e309").replace("Infinity", "1e309");

    Http.Response r = http().postJson("/api/v1/runs", json, TOKEN);

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(r.json().get("detail").asString()).startsWith(field);
    assertThat(r.json().get("fields").get(0).get("field").asString()).isEqualTo(field);
    assertThat(jdbc.sql("SELECT count(*) FROM product WHERE name = ?").param(product).query(Long.class).single())
        .isZero();
  }

  @Test
  void aDirectionOtherThanTheSeriesOwnIsA400NamingBoth() {
    String product = unique("cygwin");
    String machine = unique("xp");
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.0", machine, result("write-64b", 1.0, 2.0))),
        TOKEN).status()).isEqualTo(201);
    RunUpload.ResultUpload flipped = new RunUpload.ResultUpload("write-64b", "time-per-op", "us",
        RunUpload.HIGHER_IS_BETTER, List.of(1.0, 2.0));

    Http.Response r = http().postJson("/api/v1/runs", json(run(product, "1.1", machine, flipped)), TOKEN);

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().get("fields").get(0).get("field").asString()).isEqualTo("results[0].direction");
    assertThat(r.json().get("fields").get(0).get("message").asString())
        .isEqualTo("is higher_is_better but earlier runs of write-64b time-per-op on this machine said lower_is_better");
    assertThat(runs(product)).isEqualTo(1);
  }

  @Test
  void malformedJsonIsA400NotA500() {
    for (String body : List.of("{", "not json", "[]", "null", "{\"id\": }", "")) {
      Http.Response r = http().postJson("/api/v1/runs", body, TOKEN);
      assertThat(r.status()).as(body).isEqualTo(400);
      assertThat(r.contentType()).startsWith("application/problem+json");
      assertThat(r.body()).doesNotContain("Exception").doesNotContain("at org.");
    }
  }

  @Test
  void deeplyNestedJsonIsRefused() {
    String deep = "{\"id\":" + "[".repeat(5000) + "]".repeat(5000) + "}";
    Http.Response r = http().postJson("/api/v1/runs", deep, TOKEN);
    assertThat(r.status()).isEqualTo(400);
  }

  @Test
  void nonFiniteSamplesAreRefused() {
    String body = json(run(unique("cygwin"), "1.0", unique("xp"), result("write-64b", 1.0, 2.0)))
        .replace("[1.0,2.0]", "[1.0,NaN]");
    Http.Response r = http().postJson("/api/v1/runs", body, TOKEN);
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().get("fields").get(0).get("field").asString()).startsWith("results[0].samples");
  }

  @Test
  void tooManyResultsOrSamplesAreRefused() {
    List<RunUpload.ResultUpload> many = new ArrayList<>();
    for (int i = 0; i <= RunValidator.MAX_RESULTS; i++) {
      many.add(result("b" + i, 1.0));
    }
    RunUpload tooManyResults = run(unique("cygwin"), "1", unique("xp"), many.toArray(RunUpload.ResultUpload[]::new));
    double[] samples = new double[RunValidator.MAX_SAMPLES / 2 + 1];
    RunUpload tooManySamples = run(unique("cygwin"), "1", unique("xp"), result("a", samples), result("b", samples));

    Http.Response r1 = http().postJson("/api/v1/runs", json(tooManyResults), TOKEN);
    Http.Response r2 = http().postJson("/api/v1/runs", json(tooManySamples), TOKEN);

    assertThat(r1.status()).isEqualTo(400);
    assertThat(r1.json().get("detail").asString()).isEqualTo("results: must have at most 10,000 results (has 10,001)");
    assertThat(r2.status()).isEqualTo(400);
    assertThat(r2.json().get("detail").asString())
        .isEqualTo("results: must have at most 1,000,000 samples in all (has 1,000,002)");
  }

  @Test
  void aBodyOver16MiBIsA413() {
    byte[] body = new byte[16 * 1024 * 1024 + 10];
    java.util.Arrays.fill(body, (byte) ' ');
    Http.Response r = http().postBytes("/api/v1/runs", body, "application/json", TOKEN);
    assertThat(r.status()).isEqualTo(413);
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(r.json().get("detail").asString()).as("the limit's digits grouped as pages write numbers")
        .matches("the request body is larger than the limit of [1-9][0-9]{0,2}(,[0-9]{3})+ bytes");
  }

  @Test
  void aChunkedBodyOver16MiBIsA413() {
    byte[] chunk = " ".repeat(1 << 20).getBytes();
    List<java.io.InputStream> parts = new ArrayList<>();
    for (int i = 0; i < 17; i++) {
      parts.add(new java.io.ByteArrayInputStream(chunk));
    }
    var publisher = java.net.http.HttpRequest.BodyPublishers.ofInputStream(
        () -> new java.io.SequenceInputStream(java.util.Collections.enumeration(parts)));
    Http.Response r = http().send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create("http://localhost:" + port + "/api/v1/runs"))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + TOKEN).POST(publisher));
    assertThat(r.status()).isEqualTo(413);
  }

  @Test
  void aRunThatFailsHalfWayLeavesNothing() {
    String product = unique("cygwin");
    String machine = unique("xp");
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.0", machine, result("write-64b", 1.0))), TOKEN)
        .status()).isEqualTo(201);
    // the second result gives a unit of another dimension to an existing series: refused after product,
    // version and machine rows were already written in the transaction
    RunUpload.ResultUpload ms = new RunUpload.ResultUpload("write-64b", "time-per-op", "MB/s", "lower_is_better",
        List.of(0.001));
    RunUpload second = run(product, "2.0", machine, result("fork", 75.0), ms);

    Http.Response r = http().postJson("/api/v1/runs", json(second), TOKEN);

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().get("fields").get(0).get("field").asString()).isEqualTo("results[1].unit");
    assertThat(runs(product)).isEqualTo(1);
    assertThat(jdbc.sql("SELECT count(*) FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ? AND v.name = '2.0'")
        .param(product).query(Long.class).single()).isZero();
    assertThat(jdbc.sql("SELECT count(*) FROM series s JOIN product p ON p.id = s.product_id WHERE p.name = ? AND s.benchmark = 'fork'")
        .param(product).query(Long.class).single()).isZero();
  }

  @Test
  void concurrentResendsOfOneRunStoreItOnce() throws Exception {
    String product = unique("cygwin");
    String body = json(run(product, "1.0", unique("xp"), result("write-64b", 1.0, 2.0)));
    List<Integer> statuses = java.util.Collections.synchronizedList(new ArrayList<>());
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Thread t = new Thread(() -> statuses.add(http().postJson("/api/v1/runs", body, TOKEN).status()));
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(statuses).containsOnly(200, 201);
    assertThat(statuses).filteredOn(s -> s == 201).hasSize(1);
    assertThat(runs(product)).isEqualTo(1);
  }
}
