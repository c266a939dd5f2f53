package org.perftrack.server.annotations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.server.security.Scope;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * Notes on the charts through the API: made by triage, refused field by field, deleted with undo and audited; noted
 * by the server once when a machine's antivirus changed; marked on the series chart, listed near the regression and
 * the summary ("3 machines had an antivirus change the same day"), and a summary triaged as infrastructure.
 */
class AnnotationsTest extends IntegrationTest {

  @Test
  void anAntivirusUpdateIsNotedOncePerMachineMarkedOnTheChartAndListedNearTheStep() {
    String product = unique("cygwin");
    List<String> machines = List.of(unique("xp-a"), unique("xp-b"), unique("xp-c"));
    for (String machine : machines) {
      for (RunUpload run : StepFixtures.history(product, machine, "write-64b")) {
        assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
      }
    }

    JsonNode notes = http().get("/api/v1/annotations?machine=" + machines.get(0)).json();
    List<JsonNode> mine = notes.valueStream().filter(n -> machines.get(0).equals(textOf(n, "machine"))).toList();
    assertThat(mine).as("one note for the change, none for the ten runs after it").hasSize(1);
    assertThat(mine.get(0).get("text").asString()).isEqualTo("agent saw antivirus NOD32 2.5 → NOD32 2.7");
    assertThat(mine.get(0).get("kind").asString()).isEqualTo("environment");
    assertThat(mine.get(0).get("subject").asString()).isEqualTo("antivirus");

    JsonNode chart = http().get("/products/" + product + "/series/chart?benchmark=write-64b&metric=time-per-op&machine="
        + machines.get(0)).json();
    List<JsonNode> marks = chart.get("markers").valueStream().filter(m -> m.get("kind").asString().equals("note"))
        .toList();
    assertThat(marks).as(chart.get("markers").toString()).hasSize(1);
    assertThat(marks.get(0).get("version").asString()).as("at the first version measured after the change")
        .isEqualTo(StepFixtures.STEP);

    JsonNode regression = http().get("/api/v1/regressions?product=" + product + "&machine=" + machines.get(0)).json()
        .valueStream().filter(r -> r.get("metric").asString().equals("time-per-op")).findFirst().orElseThrow();
    String page = http().page("/regressions/" + regression.get("id").asLong()).body();
    assertThat(page).contains("Notes near this step", "agent saw antivirus NOD32 2.5 → NOD32 2.7",
        "3 machines had an antivirus change the same day");
    String summary = http().page("/summaries/" + regression.get("summaryId").asLong()).body();
    assertThat(summary).contains("Notes near these regressions", "3 machines had an antivirus change the same day",
        machines.get(2));
  }

  @Test
  void aSummaryTriagedAsInfrastructureNamesTheNoteAndIsInvalid() {
    String product = unique("cygwin");
    String machine = unique("xp");
    for (RunUpload run : StepFixtures.history(product, machine, "write-64b")) {
      http().postJson("/api/v1/runs", json(run), TOKEN);
    }
    long note = http().get("/api/v1/annotations?machine=" + machine).json().valueStream()
        .filter(n -> machine.equals(textOf(n, "machine"))).findFirst().orElseThrow().get("id").asLong();
    long summary = http().get("/api/v1/regressions?product=" + product).json().get(0).get("summaryId").asLong();
    String triage = token(Scope.TRIAGE);

    Http.Response missing = http().postJson("/api/v1/summaries/" + summary + ":infrastructure", "{}", triage);
    Http.Response unknown = http().postJson("/api/v1/summaries/" + summary + ":infrastructure",
        "{\"annotation\": 999999999}", triage);
    assertThat(missing.status()).isEqualTo(400);
    assertThat(missing.json().get("fields").get(0).get("field").asString()).isEqualTo("annotation");
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(http().postJson("/api/v1/summaries/" + summary + ":infrastructure", "{\"annotation\": " + note + "}",
        TOKEN).status()).as("an upload token").isEqualTo(403);

    Http.Response done = http().postJson("/api/v1/summaries/" + summary + ":infrastructure",
        "{\"annotation\": " + note + "}", triage);
    assertThat(done.status()).as(done.body()).isEqualTo(200);
    assertThat(done.json().get("status").asString()).isEqualTo("invalid");
    assertThat(done.json().get("note").asString()).startsWith("infrastructure: agent saw antivirus NOD32 2.5 → NOD32 2.7");
    assertThat(http().page("/summaries/" + summary).body())
        .contains("Triaged as infrastructure:", "agent saw antivirus NOD32 2.5 → NOD32 2.7");
  }

  @Test
  void triageMakesDeletesAndRestoresANoteAndEveryChangeIsAudited() {
    String product = unique("cygwin");
    String machine = unique("xp");
    List<RunUpload> runs = StepFixtures.history(product, machine, "write-64b");
    http().postJson("/api/v1/runs", json(runs.get(0)), TOKEN);
    String triage = token(Scope.TRIAGE);
    String body = json(Map.of("at", "2026-11-30T08:00:00Z", "product", product, "machine", machine,
        "text", "Windows update KB123456 installed", "link", "https://example.org/kb/123456"));

    assertThat(http().postJson("/api/v1/annotations", body, TOKEN).status()).as("an upload token").isEqualTo(403);
    assertThat(http().postJson("/api/v1/annotations", body, null).status()).isEqualTo(401);
    Http.Response made = http().postJson("/api/v1/annotations", body, triage);
    assertThat(made.status()).as(made.body()).isEqualTo(201);
    long id = made.json().get("id").asLong();
    assertThat(made.json().get("createdBy").asString()).isEqualTo("token:test");
    assertThat(http().get("/api/v1/annotations?product=" + product).json().valueStream()
        .map(n -> n.get("text").asString())).contains("Windows update KB123456 installed");

    Http.Response deleted = delete("/api/v1/annotations/" + id, triage);
    assertThat(deleted.status()).as(deleted.body()).isEqualTo(200);
    assertThat(deleted.json().get("deletionId").isNumber()).isTrue();
    assertThat(http().get("/api/v1/annotations/" + id).status()).isEqualTo(404);
    assertThat(http().get("/api/v1/annotations?product=" + product).json().valueStream()
        .map(n -> n.get("text").asString())).doesNotContain("Windows update KB123456 installed");
    assertThat(http().getWithToken("/api/v1/deletions", ADMIN_TOKEN).body()).contains("annotation " + id);

    assertThat(http().postJson("/api/v1/annotations/" + id + ":restore", "", triage).status()).isEqualTo(200);
    assertThat(http().get("/api/v1/annotations/" + id).json().get("link").asString())
        .isEqualTo("https://example.org/kb/123456");
    assertThat(http().postJson("/api/v1/annotations/" + id + ":restore", "", triage).status())
        .as("restored already").isEqualTo(404);
    assertThat(jdbc.sql("SELECT action FROM audit_event WHERE target = ? OR target LIKE ? ORDER BY id")
        .params("annotation " + id, "annotation " + id + " (%").query(String.class).list())
        .containsExactly("noted", "deleted", "restored");
  }

  @Test
  void badNotesAreRefusedNamingTheFieldAndNothingIsStored() {
    String product = unique("cygwin");
    String machine = unique("xp");
    http().postJson("/api/v1/runs", json(StepFixtures.history(product, machine, "write-64b").get(0)), TOKEN);
    String triage = token(Scope.TRIAGE);
    Map<String, Map<String, Object>> bad = new java.util.LinkedHashMap<>();
    bad.put("text", Map.of("at", "2026-11-30T08:00:00Z", "product", product));
    bad.put("text ", Map.of("at", "2026-11-30T08:00:00Z", "product", product, "text", "x".repeat(301)));
    bad.put("link", Map.of("at", "2026-11-30T08:00:00Z", "product", product, "text", "t", "link", "javascript:alert(1)"));
    bad.put("link ", Map.of("at", "2026-11-30T08:00:00Z", "product", product, "text", "t", "link", "ftp://x.org/a"));
    bad.put("at", Map.of("at", "yesterday", "product", product, "text", "t"));
    bad.put("at ", Map.of("product", product, "text", "t"));
    bad.put("at  ", Map.of("at", "2026-11-30T08:00:00Z", "version", "1.5.19-4", "product", product, "text", "t"));
    bad.put("product", Map.of("at", "2026-11-30T08:00:00Z", "product", unique("none"), "text", "t"));
    bad.put("product ", Map.of("version", "1.5.19-4", "text", "t"));
    bad.put("machine", Map.of("at", "2026-11-30T08:00:00Z", "machine", unique("none"), "text", "t"));
    bad.put("version", Map.of("version", "9.9", "product", product, "text", "t"));
    bad.put("limit", Map.of());
    for (var e : bad.entrySet()) {
      Http.Response r = e.getKey().equals("limit") ? http().get("/api/v1/annotations?limit=100000")
          : http().postJson("/api/v1/annotations", json(e.getValue()), triage);
      assertThat(r.status()).as(e.getKey() + ": " + r.body()).isEqualTo(400);
      assertThat(r.json().get("fields").get(0).get("field").asString()).as(r.body()).isEqualTo(e.getKey().strip());
    }
    assertThat(http().postJson("/api/v1/annotations", "not json", triage).status()).isEqualTo(400);
    assertThat(http().get("/api/v1/annotations?product=" + product + "&kind=note").json().size())
        .as("nothing stored").isZero();
    assertThat(http().get("/api/v1/annotations?from=soon").json().get("fields").get(0).get("field").asString())
        .isEqualTo("from");
  }

  @Test
  void theApiDocumentListsTheAnnotationsWithTheirProblems() {
    JsonNode paths = http().get("/v3/api-docs").json().get("paths");
    assertThat(paths.get("/api/v1/annotations").get("post").get("responses").propertyNames())
        .contains("201", "400", "401", "403");
    assertThat(paths.get("/api/v1/annotations/{id}").get("delete").get("responses").propertyNames())
        .contains("400", "401", "403", "404");
    assertThat(paths.get("/api/v1/summaries/{id}:infrastructure").get("post").get("responses").propertyNames())
        .contains("400", "404");
  }

  private Http.Response delete(String path, String token) {
    return http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .header("Authorization", "Bearer " + token).DELETE());
  }

  private static String textOf(JsonNode node, String field) {
    return node.has(field) ? node.get(field).asString() : null;
  }
}
