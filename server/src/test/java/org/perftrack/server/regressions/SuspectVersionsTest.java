package org.perftrack.server.regressions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import org.junit.jupiter.api.Test;
import org.perftrack.server.detection.Regressions;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.server.support.Fixtures;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A 10 % step in 6 % noise at version 1.12 of 24, uploaded one version at a time: the levels show the step clearly
 * but cannot tell whether it starts at 1.11 or 1.12, so it is reported as a range of versions. The range comes back
 * through the API, the regression page, the list, the series page and the run page say it, the record opened with three suspects is narrowed
 * by later versions (its history says so, nothing withdrawn), and a bisection would re-measure the suspects.
 */
class SuspectVersionsTest extends IntegrationTest {

  private final String product = unique("cygwin");
  private final String machine = unique("xp");
  @Autowired
  private Regressions regressions;

  @Test
  void aStepPlacedWithinTwoVersionsComesBackAsARangeAndThePagesSayIt() {
    for (RunUpload run : Fixtures.rangedStep(product, machine)) {
      Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
      assertThat(r.status()).as(r.body()).isEqualTo(201);
    }

    JsonNode list = http().get("/api/v1/regressions?product=" + product + "&status=all").json();
    assertThat(list.size()).as(list.toString()).isEqualTo(1);
    JsonNode regression = list.get(0);
    assertThat(regression.get("status").asString()).isEqualTo("open");
    assertThat(regression.get("version").asString()).isEqualTo("1.12");
    assertThat(regression.get("firstSuspect").asString()).isEqualTo("1.11");
    assertThat(regression.get("lastSuspect").asString()).isEqualTo("1.12");
    long id = regression.get("id").asLong();
    assertThat(regression.get("history").valueStream().map(e -> e.get("action").asString()).toList())
        .contains("opened", "placed").doesNotContain("withdrawn", "reopened");
    // opened between 1.11 and 1.13; the next version narrowed it on the same record
    assertThat(regression.get("history").valueStream().map(e -> e.get("reason").asString()).toList())
        .contains("placed between 1.11 and 1.12 (most likely 1.12); it was between 1.11 and 1.13 (most likely 1.12)");
    JsonNode one = http().get("/api/v1/regressions/" + id).json();
    assertThat(one.get("firstSuspect").asString()).isEqualTo("1.11");

    assertThat(page("/regressions/" + id))
        .contains("It starts between 1.11 and 1.12 (most likely 1.12)");
    assertThat(page("/regressions?product=" + product))
        .contains("1.11 → 1.12 starts between 1.11 and 1.12 (most likely 1.12)");
    assertThat(page("/regressions/" + id)).contains("Not bisected. An agent of this machine that offers"
        + " 1.11 to 1.12 and the version before them can measure them again interleaved");
    assertThat(page("/summaries/" + regression.get("summaryId").asLong()))
        .contains("1.11 → 1.12 starts between 1.11 and 1.12 (most likely 1.12)");
    assertThat(page("/products/" + product + "/series?benchmark=write-64b&metric=time-per-op"))
        .as("the series page's list of its steps").contains("% slower between 1.11 and 1.12 (most likely 1.12) on "
            + machine);
    String opener = jdbc.sql("SELECT created_by_run::text FROM regression WHERE id = ?").param(id)
        .query(String.class).single();
    assertThat(page("/runs/" + opener)).as("the run page of the upload that opened it")
        .containsPattern("1\\.11 → 1\\.12 ×[0-9.]+ ?, starts between 1\\.11 and 1\\.12 \\(most likely 1\\.12\\)");
    assertThat(http().get("/v3/api-docs").body()).as("the OpenAPI schema of a regression")
        .contains("\"firstSuspect\"", "\"lastSuspect\"");
    // a bisection runs from the version measured before the first suspect to the last one: the rounds re-measure them
    Regressions.Located ends = regressions.located(id).orElseThrow();
    assertThat(ends.baseline() + " .. " + ends.version()).isEqualTo("1.10 .. 1.12");
  }

  /**
   * A page's text as {@link Http.Response#text()} reads it, without the space it puts where a tag closes before a
   * parenthesis: pages write each version of a place whole in its own element ("(most likely <span>1.12</span>)").
   */
  private String page(String path) {
    return http().page(path).text().replace(" )", ")");
  }
}
