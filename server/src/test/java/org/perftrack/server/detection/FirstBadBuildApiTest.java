package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.perftrack.wire.RunUpload.ResultUpload;
import tools.jackson.databind.JsonNode;

/** The upload that brought a step reports it unconfirmed; the next upload at the new level confirms it. */
class FirstBadBuildApiTest extends IntegrationTest {

  private final Random random = new Random(5);
  private final String product = unique("ci");
  private final String machine = unique("runner");

  private JsonNode upload(String version, double level) {
    List<Double> samples = java.util.stream.IntStream.range(0, 10)
        .mapToObj(i -> level * (1 + 0.01 * random.nextGaussian())).toList();
    ResultUpload result = new ResultUpload("BM_StringCopy/64", "real_time", "ns", RunUpload.LOWER_IS_BETTER, samples);
    Http.Response r = http().postJson("/api/v1/runs", json(run(product, version, machine, result)), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json();
  }

  @Test
  void theCulpritBuildsUploadReportsTheStepUnconfirmedAndTheNextBuildsUploadConfirmsIt() {
    for (int b = 1; b <= 6; b++) {
      assertThat(upload("2.0." + b, 40).get("regressions").size()).isZero();
    }

    JsonNode culprit = upload("2.0.7", 100);
    JsonNode next = upload("2.0.8", 101);

    assertThat(culprit.get("regressions").size()).isEqualTo(1);
    JsonNode reported = culprit.get("regressions").get(0);
    assertThat(reported.get("version").asString()).isEqualTo("2.0.7");
    assertThat(reported.get("confirmed").asBoolean()).isFalse();
    assertThat(culprit.get("confirmed").size()).isZero();
    assertThat(next.get("regressions").size()).as("the step was reported once").isZero();
    assertThat(next.get("confirmed").size()).isEqualTo(1);
    JsonNode confirmed = next.get("confirmed").get(0);
    assertThat(confirmed.get("id").asLong()).isEqualTo(reported.get("id").asLong());
    assertThat(confirmed.get("confirmed").asBoolean()).isTrue();
    JsonNode one = http().get("/api/v1/regressions/" + reported.get("id").asLong()).json();
    assertThat(one.get("confirmed").asBoolean()).isTrue();
    assertThat(one.get("history").findValuesAsString("action")).containsExactly("opened", "confirmed");
  }

  @Test
  void aSmallerStepAtTheNewestBuildIsSaidToWaitForOneMoreBuildAndTheNextBuildReportsIt() {
    for (int b = 1; b <= 6; b++) {
      JsonNode answer = upload("3.0." + b, 40);
      assertThat(answer.get("regressions").size()).isZero();
      assertThat(answer.get("waiting").size()).as("nothing moved").isZero();
    }

    JsonNode smaller = upload("3.0.7", 52);
    JsonNode next = upload("3.0.8", 52.5);

    assertThat(smaller.get("regressions").size()).as("x1.3 is below what a first bad build is reported at").isZero();
    assertThat(smaller.get("waiting")).singleElement().satisfies(w -> {
      assertThat(w.get("benchmark").asString()).isEqualTo("BM_StringCopy/64");
      assertThat(w.get("product").asString()).isEqualTo(product);
      assertThat(w.get("machine").asString()).isEqualTo(machine);
      assertThat(w.get("version").asString()).isEqualTo("3.0.7");
      assertThat(w.get("ratio").asDouble()).isBetween(1.25, 1.35);
      assertThat(w.get("note").asString()).isEqualTo("waiting for one more build");
    });
    assertThat(next.get("regressions")).singleElement().satisfies(r ->
        assertThat(r.get("version").asString()).isEqualTo("3.0.7"));
    assertThat(next.get("waiting").size()).isZero();
  }
}
