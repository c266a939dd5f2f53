package org.perftrack.server.summaries;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * A backfilled version moves a step (3.5 → 3.7 becomes 3.5 → 3.6): detection re-attributes the
 * regression, and its summary membership follows it to the summary of 3.6; the summary of 3.7, left
 * empty, is withdrawn, says why and where its members went, and its unsent mail goes with them.
 */
class SummaryFollowsReattributionTest extends IntegrationTest {

  @Test
  void aReattributedMemberMovesToTheSummaryOfItsNewVersionAndTheEmptyOneIsWithdrawn() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    List.of("3.1", "3.2", "3.3", "3.4", "3.5").forEach(v -> upload(Seed003.run(product, machine, v, 18, 1)));
    JsonNode first = upload(Seed003.run(product, machine, "3.7", 48, 3000));
    long old = first.get("summaries").get(0).get("id").asLong();
    long regression = first.get("regressions").get(0).get("id").asLong();
    assertThat(outboxKeys(product)).containsExactly("summary-" + old);

    JsonNode backfill = upload(Seed003.run(product, machine, "3.6", 48, 3000));

    JsonNode moved = http().get("/api/v1/regressions/" + regression).json();
    assertThat(moved.get("version").asString()).as("detection re-attributed the step").isEqualTo("3.6");
    long now = moved.get("summaryId").asLong();
    assertThat(now).as("the member left the summary of 3.7").isNotEqualTo(old);
    assertThat(backfill.get("summaries").get(0).get("id").asLong()).isEqualTo(now);
    assertThat(backfill.get("summaries").get(0).get("change").asString()).isEqualTo("opened");
    assertThat(first.get("summaries").get(0).get("version").asString()).isEqualTo("3.7");
    assertThat(backfill.get("summaries").get(0).get("version").asString()).as("the summary's own version")
        .isEqualTo("3.6");
    assertThat(backfill.get("summaries").get(0).get("product").asString()).isEqualTo(product);

    JsonNode target = http().get("/api/v1/summaries/" + now).json();
    assertThat(target.get("version").asString()).isEqualTo("3.6");
    assertThat(target.get("status").asString()).isEqualTo("open");
    assertThat(target.get("members")).extracting(m -> m.get("id").asLong()).containsExactly(regression);

    JsonNode withdrawn = http().get("/api/v1/summaries/" + old).json();
    assertThat(withdrawn.get("status").asString()).isEqualTo("withdrawn");
    assertThat(withdrawn.get("members")).isEmpty();
    assertThat(withdrawn.get("movedTo")).extracting(JsonNode::asLong).containsExactly(now);
    assertThat(withdrawn.get("withdrawnReason").asString()).contains("re-attributed", "3.6");

    assertThat(http().get("/api/v1/summaries?product=" + product).json())
        .as("open summaries: only the new one").extracting(s -> s.get("id").asLong()).containsExactly(now);
    assertThat(http().get("/api/v1/summaries?product=" + product + "&status=withdrawn").json())
        .extracting(s -> s.get("id").asLong()).containsExactly(old);
    String page = http().page("/summaries/" + old).body();
    assertThat(page).contains("id=\"withdrawn\"", "Withdrawn.", "href=\"/summaries/" + now + "\"");
    assertThat(http().page("/").body()).doesNotContain("href=\"/summaries/" + old + "\"")
        .contains("href=\"/summaries/" + now + "\"");
    assertThat(outboxKeys(product)).as("the unsent mail of 3.7 became the mail of 3.6")
        .containsExactly("summary-" + now);
    assertThat(http().patchJson("/api/v1/summaries/" + old, "{\"status\":\"fixed\"}", ADMIN_TOKEN).status())
        .as("a withdrawn summary is not triaged").isEqualTo(409);
  }

  @Test
  void aSessionsAnswerNamesTheVersionOfEachSummaryItMovedMembersTo() {
    String product = unique("cygwin");
    String machine = unique("xp-lab");
    List.of("3.1", "3.2", "3.3", "3.4", "3.5").forEach(v -> upload(Seed003.run(product, machine, v, 18, 1)));
    upload(Seed003.run(product, machine, "3.7", 48, 3000));
    String batch = java.util.UUID.randomUUID().toString();
    List<JsonNode> answers = new java.util.ArrayList<>();
    for (RunUpload r : List.of(Seed003.run(product, machine, "3.5", 18, 1), Seed003.run(product, machine, "3.6", 48, 3000),
        Seed003.run(product, machine, "3.7", 48, 3000))) { // a bisection's session: the middle one with both ends
      answers.add(upload(new RunUpload(r.id(), r.product(), r.version(), r.machine(), r.suite(), batch, r.startedAt(),
          r.finishedAt(), r.attributes(), r.results(), r.failures()).withBatchSize(3)));
    }

    JsonNode completing = answers.get(2);
    assertThat(completing.get("regressions")).as("no new regression: the known one moved").isEmpty();
    assertThat(completing.get("summaries")).singleElement().satisfies(s -> {
      assertThat(s.get("change").asString()).isEqualTo("opened");
      assertThat(s.get("version").asString()).as("the summary's version, not the completing run's 3.7")
          .isEqualTo("3.6");
    });
  }

  private List<String> outboxKeys(String product) {
    return jdbc.sql("SELECT DISTINCT dedup_key FROM alert_outbox WHERE kind = 'summary' AND subject LIKE ?")
        .param("%" + product + " %").query(String.class).list();
  }

  private JsonNode upload(RunUpload run) {
    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json();
  }
}
