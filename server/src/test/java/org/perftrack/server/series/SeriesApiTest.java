package org.perftrack.server.series;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

class SeriesApiTest extends IntegrationTest {

  @Test
  void pointsComeInVersionOrderNotUploadOrder() {
    String product = unique("cygwin");
    String machine = unique("xp");
    for (String version : List.of("1.7.7", "1.5.24-2", "1.7.10", "1.5.19-4", "1.7.9")) {
      upload(run(product, version, machine, result("write-64b", 18.0, 19.0, 20.0)));
    }

    JsonNode points = series(product, machine, "write-64b").json().get("points");

    assertThat(points.valueStream().map(p -> p.get("version").asString()).toList())
        .containsExactly("1.5.19-4", "1.5.24-2", "1.7.7", "1.7.9", "1.7.10");
  }

  @Test
  void lastGivesTheNewestVersionsWithAllTheirRunsAndABadValueIsA400NamingIt() {
    String product = unique("cygwin");
    String machine = unique("xp");
    for (String version : List.of("1.7.7", "1.5.24-2", "1.7.10", "1.5.19-4", "1.7.9")) {
      upload(run(product, version, machine, result("write-64b", 18.0, 19.0, 20.0)));
    }
    upload(run(product, "1.7.9", machine, result("write-64b", 21.0)));
    String path = "/api/v1/series?product=" + product + "&machine=" + machine + "&benchmark=write-64b&metric=time-per-op";

    JsonNode points = http().get(path + "&last=2").json().get("points");
    Http.Response zero = http().get(path + "&last=0");
    Http.Response tooMany = http().get(path + "&last=10001");

    assertThat(points.valueStream().map(p -> p.get("version").asString()).toList()).containsExactly("1.7.9", "1.7.10");
    assertThat(points.get(0).get("runs")).hasSize(2);
    assertThat(points.get(0).get("n").asInt()).isEqualTo(4);
    assertThat(http().get(path + "&last=50").json().get("points")).hasSize(5);
    assertThat(zero.status()).isEqualTo(400);
    assertThat(zero.body()).contains("last");
    assertThat(tooMany.status()).isEqualTo(400);
    assertThat(tooMany.json().get("detail").asString())
        .isEqualTo("last: must be between 1 and 10,000 (leave it out for every version)");
  }

  @Test
  void aPointSummarisesAllSamplesOfItsVersionAndKeepsThemRaw() {
    String product = unique("cygwin");
    String machine = unique("xp");
    upload(run(product, "1.5.24-2", machine, result("write-64b", 48.2, 47.9, 48.4)));
    upload(run(product, "1.5.24-2", machine, result("write-64b", 48.0, 48.1)));

    Http.Response r = series(product, machine, "write-64b");

    assertThat(r.status()).isEqualTo(200);
    JsonNode p = r.json().get("points").get(0);
    assertThat(p.get("n").asInt()).isEqualTo(5);
    assertThat(p.get("min").asDouble()).isEqualTo(47.9);
    assertThat(p.get("median").asDouble()).isEqualTo(48.1);
    assertThat(p.get("mean").asDouble()).isCloseTo(48.12, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(p.get("max").asDouble()).isEqualTo(48.4);
    assertThat(p.get("samples").valueStream().map(JsonNode::asDouble).toList())
        .containsExactlyInAnyOrder(48.2, 47.9, 48.4, 48.0, 48.1);
    assertThat(p.get("runs")).hasSize(2);
    assertThat(r.json().get("unit").asString()).isEqualTo("us");
    assertThat(r.json().get("direction").asString()).isEqualTo("lower_is_better");
  }

  @Test
  void anUnknownSeriesIsA404AndAMissingParameterA400() {
    assertThat(series(unique("nope"), "m", "b").status()).isEqualTo(404);
    Http.Response r = http().get("/api/v1/series?product=cygwin&machine=m&benchmark=b");
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().get("detail").asString()).contains("metric");
  }

  @Test
  void aRunReadsBackAsUploadedWithItsMachineAndEnvironment() {
    RunUpload run = run(unique("cygwin"), "1.5.24-2", unique("xp"),
        result("write-64b", 48.2, 47.9), result("fork", 75.0, 74.0));
    upload(run);

    Http.Response r = http().get("/api/v1/runs/" + run.id());

    assertThat(r.status()).isEqualTo(200);
    JsonNode j = r.json();
    assertThat(j.get("version").asString()).isEqualTo("1.5.24-2");
    assertThat(j.get("machine").get("attributes").get("antivirus").asString()).isEqualTo("NOD32");
    assertThat(j.get("attributes").get("compiler").asString()).isEqualTo("gcc 3.4.4");
    assertThat(j.get("results")).hasSize(2);
    assertThat(j.get("results").get(1).get("samples").valueStream().map(JsonNode::asDouble).toList())
        .containsExactly(48.2, 47.9);
    JsonNode write = j.get("results").get(1);
    assertThat(List.of(write.get("n").asInt(), write.get("min").asDouble(), write.get("median").asDouble(),
        write.get("mean").asDouble(), write.get("max").asDouble()))
        .as("the summary of raw samples, derived when read").containsExactly(2, 47.9, (47.9 + 48.2) / 2,
            (47.9 + 48.2) / 2, 48.2);
    assertThat(http().get("/api/v1/runs/not-a-uuid").status()).isEqualTo(400);
    assertThat(http().get("/api/v1/runs/" + java.util.UUID.randomUUID()).status()).isEqualTo(404);
  }

  @Test
  void theOpenApiDocumentDescribesTheUpload() {
    Http.Response r = http().get("/v3/api-docs");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("paths").has("/api/v1/runs")).isTrue();
    var schemas = r.json().get("components").get("schemas");
    assertThat(r.json().get("paths").get("/api/v1/runs").get("post").get("description").asString())
        .contains("batchSize");
    assertThat(schemas.get("UploadResponse").get("properties").get("session").get("description").asString())
        .contains("completes the session");
  }

  @Test
  void everyOperationDocumentsItsProblemAnswersThroughSharedResponses() throws java.io.IOException {
    Http.Response r = http().get("/v3/api-docs");
    var doc = r.json();
    // the document as served, for the OpenAPI linter (.ci/run: redocly lint server/target/openapi.json)
    java.nio.file.Files.writeString(java.nio.file.Path.of("target", "openapi.json"), r.body());

    java.util.List<String> without = new java.util.ArrayList<>();
    doc.get("paths").properties().forEach(path -> path.getValue().properties().forEach(op -> {
      var responses = op.getValue().get("responses");
      for (String status : java.util.List.of("400", "401", "403", "503")) {
        var answer = responses == null ? null : responses.get(status);
        if (answer == null || !answer.has("$ref")) {
          without.add(op.getKey() + " " + path.getKey() + " " + status);
        }
      }
    }));
    assertThat(without).as("operations without a shared problem response").isEmpty();
    assertThat(doc.get("components").get("responses").get("BadRequest").get("content")
        .has("application/problem+json")).isTrue();
    assertThat(doc.get("paths").get("/api/v1/regressions/{id}").get("patch").get("responses").get("404").get("$ref")
        .asString()).isEqualTo("#/components/responses/NotFound");
  }

  @Test
  void theOpenApiDocumentHasATitleTheBearerSchemeAndTagsByResource() {
    var doc = http().get("/v3/api-docs").json();

    assertThat(doc.get("info").get("title").asString()).isEqualTo("perftrack API");
    assertThat(doc.get("servers").get(0).get("url").asString()).as("relative: no localhost in the document")
        .isEqualTo("/");
    assertThat(doc.get("info").get("description").asString()).contains("regressions");
    assertThat(doc.get("components").get("securitySchemes").get("bearer").get("scheme").asString()).isEqualTo("bearer");
    var upload = doc.get("paths").get("/api/v1/runs").get("post");
    assertThat(upload.get("tags").get(0).asString()).isEqualTo("runs");
    assertThat(upload.get("summary").asString()).startsWith("Upload one run");
    var one = doc.get("paths").get("/api/v1/regressions/{id}").get("patch");
    assertThat(one.get("tags").get(0).asString()).isEqualTo("regressions");
    assertThat(one.get("summary").asString()).isNotBlank();
    assertThat(doc.toString()).doesNotContain("-controller");
  }

  private void upload(RunUpload run) {
    assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
  }

  private Http.Response series(String product, String machine, String benchmark) {
    return http().get("/api/v1/series?product=" + product + "&machine=" + machine + "&benchmark=" + benchmark
        + "&metric=time-per-op");
  }
}
