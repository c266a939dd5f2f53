package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

class CompareApiTest extends IntegrationTest {

  private final String product = unique("cygwin");
  private final String machine = unique("xp");

  private void upload(RunUpload run) {
    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
  }

  private JsonNode compare(String base, String head) {
    Http.Response r = http().get("/api/v1/compare?product=" + product + "&machine=" + machine + "&base=" + base
        + "&head=" + head);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json().get("rows");
  }

  @Test
  void comparesEveryMetricMeasuredInBothVersions() {
    upload(run(product, "1.5.19-4", machine, result("write-64b", 18.1, 17.9, 18.0, 18.2, 18.0),
        result("fork", 750, 760, 755, 748, 752)));
    upload(run(product, "1.5.24-2", machine, result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1),
        result("fork", 751, 757, 753, 750, 754), result("spawn", 900, 910, 905, 903, 902)));

    JsonNode rows = compare("1.5.19-4", "1.5.24-2");

    assertThat(rows.size()).isEqualTo(2);
    assertThat(rows.get(0).get("benchmark").asString()).isEqualTo("fork");
    assertThat(rows.get(0).get("verdict").asString()).isEqualTo("unchanged");
    assertThat(rows.get(1).get("verdict").asString()).isEqualTo("regression");
    assertThat(rows.get(1).get("ratio").asDouble()).isCloseTo(2.67, within(0.02));
    assertThat(rows.get(1).get("pValue").asDouble()).isLessThan(0.001);
  }

  @Test
  void saysWhatDetectionMadeOfThePairSoThatCompareAndTheRegressionsNeverDisagreeSilently() {
    for (int v = 1; v <= 6; v++) {
      upload(run(product, "4.0." + v, machine, result("write-64b", 18.1, 17.9, 18.0, 18.2, 18.0)));
    }
    upload(run(product, "4.0.7", machine, result("write-64b", 48.2, 47.9, 48.4, 48.0, 48.1)));
    JsonNode waiting = compare("4.0.6", "4.0.7").get(0);
    JsonNode noStepBetweenTheOldOnes = compare("4.0.1", "4.0.2").get(0);
    upload(run(product, "4.0.8", machine, result("write-64b", 48.1, 48.0, 48.3, 47.9, 48.2)));

    assertThat(waiting.get("verdict").asString()).isEqualTo("regression");
    assertThat(waiting.get("detection").asString()).isEqualTo("waiting-for-confirmation");
    assertThat(compare("4.0.6", "4.0.7").get(0).get("detection").asString()).isEqualTo("detected");
    assertThat(compare("4.0.2", "4.0.8").get(0).get("detection").asString()).as("the step lies between").isEqualTo("detected");
    assertThat(noStepBetweenTheOldOnes.has("detection")).as("unchanged, no step: nothing to say").isFalse();
  }

  @Test
  void pairsRunsMeasuredInOneBatch() {
    String batch = UUID.randomUUID().toString();
    RunUpload base = run(product, "1.7.5", machine, result("lstat-dir", 100, 110, 95, 120, 105));
    RunUpload head = run(product, "1.7.7", machine, result("lstat-dir", 103, 113.3, 97.9, 123.5, 108.2));
    upload(withBatch(base, batch));
    upload(withBatch(head, batch));

    JsonNode row = compare("1.7.5", "1.7.7").get(0);

    assertThat(row.get("paired").asBoolean()).isTrue();
    assertThat(row.get("verdict").asString()).isEqualTo("regression");
  }

  @Test
  void unknownVersionIsNotFoundAndAMissingParameterIsABadRequest() {
    upload(run(product, "1.0", machine, result("fork", 1, 2, 3)));

    assertThat(http().get("/api/v1/compare?product=" + product + "&machine=" + machine + "&base=1.0&head=9.9")
        .status()).isEqualTo(404);
    assertThat(http().get("/api/v1/compare?product=" + product + "&machine=" + machine + "&base=1.0").status())
        .isEqualTo(400);
  }

  @Test
  void anUnknownProductIsNotFoundNamingTheProductNotAVersionOfIt() {
    upload(run(product, "1.0", machine, result("fork", 1, 2, 3)));
    upload(run(product, "2.0", machine, result("fork", 1, 2, 3)));
    String nope = unique("nope");

    Http.Response r = http().get("/api/v1/compare?product=" + nope + "&machine=" + machine + "&base=1.0&head=2.0");

    assertThat(r.status()).as(r.body()).isEqualTo(404);
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(r.json().get("detail").asString()).isEqualTo("product: there is no product " + nope);
    // the same with head a branch's build
    Http.Response branch = http().get("/api/v1/compare?product=" + nope + "&machine=" + machine
        + "&base=1.0&head=2.0&headBranch=pr-1");
    assertThat(branch.status()).as(branch.body()).isEqualTo(404);
    assertThat(branch.json().get("detail").asString()).isEqualTo("product: there is no product " + nope);
    // a known product's missing version is still named as the version it is
    assertThat(http().get("/api/v1/compare?product=" + product + "&machine=" + machine + "&base=1.0&head=9.9")
        .json().get("detail").asString()).isEqualTo("head: product " + product + " has no version 9.9");
    // the CSV of the compare page answers a 404 problem too, saying which product is not there
    Http.Response csv = http().get("/compare.csv?product=" + nope + "&base=1.0&head=2.0");
    assertThat(csv.status()).isEqualTo(404);
    assertThat(csv.contentType()).startsWith("application/problem+json");
    assertThat(csv.json().get("detail").asString()).isEqualTo("There is no product " + nope + ".");
    Http.Response version = http().get("/compare.csv?product=" + product + "&base=1.0&head=9.9");
    assertThat(version.status()).isEqualTo(404);
    assertThat(version.json().get("detail").asString()).startsWith(product + " has no version 9.9");
  }

  private static RunUpload withBatch(RunUpload r, String batch) {
    return new RunUpload(r.id(), r.product(), r.version(), r.machine(), r.suite(), batch, r.startedAt(),
        r.finishedAt(), r.attributes(), r.results(), r.failures());
  }
}
