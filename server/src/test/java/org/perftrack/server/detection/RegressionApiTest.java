package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
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

/** Detection through the real upload API, on the embedded PostgreSQL. */
class RegressionApiTest extends IntegrationTest {

  private final Random random = new Random(3);
  private final String product = unique("cygwin");
  private final String machine = unique("xp");

  private ResultUpload write64b(double level) {
    return new ResultUpload("write-64b", "time-per-op", "us", RunUpload.LOWER_IS_BETTER, samples(level));
  }

  private ResultUpload contextSwitches(double level) {
    return new ResultUpload("write-64b", "ctx-switches-per-op", "1", RunUpload.LOWER_IS_BETTER, samples(level));
  }

  private List<Double> samples(double level) {
    double session = 1 + 0.005 * random.nextGaussian();
    return java.util.stream.IntStream.range(0, 5)
        .mapToObj(i -> level * session * (1 + 0.01 * random.nextGaussian())).toList();
  }

  private Http.Response upload(String version, ResultUpload... results) {
    Http.Response r = http().postJson("/api/v1/runs", json(run(product, version, machine, results)), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r;
  }

  private JsonNode regressions(String query) {
    Http.Response r = http().get("/api/v1/regressions?product=" + product + "&machine=" + machine + query);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.json();
  }

  @Test
  void aBandwidthRegressionReadsInGigabytesAndAsHowManyTimesLessOnItsPage() {
    java.util.function.DoubleFunction<ResultUpload> bandwidth = level -> new ResultUpload("pipe-bw/65536",
        "bandwidth", "B/s", RunUpload.HIGHER_IS_BETTER, samples(level));
    for (String v : List.of("1.5.12-1", "1.5.18-1", "1.5.19-1", "1.5.19-4")) {
      upload(v, bandwidth.apply(3.18e9));
    }

    JsonNode created = upload("1.5.24-2", bandwidth.apply(1.092e9)).json().get("regressions");

    assertThat(created.size()).isEqualTo(1);
    String page = org.springframework.web.util.HtmlUtils.htmlUnescape(
        http().get("/regressions/" + created.get(0).get("id").asLong()).body());
    assertThat(page).containsPattern("3\\.\\d+ GB/s").containsPattern("1\\.\\d+ GB/s")
        .containsPattern("[23]\\.\\d+× less").doesNotContain("e+09 B/s", "×0.3");
  }

  @Test
  void answersTheWrite64bUploadWithItsRegressionAndAContextSwitchHint() {
    for (String v : List.of("1.5.12-1", "1.5.18-1", "1.5.19-1", "1.5.19-4")) {
      assertThat(upload(v, write64b(18), contextSwitches(5)).json().get("regressions").size()).isZero();
    }

    JsonNode created = upload("1.5.24-2", write64b(48), contextSwitches(2000)).json().get("regressions");

    assertThat(created.size()).as("context switches are a hint, not a second regression").isEqualTo(1);
    JsonNode time = created.get(0);
    assertThat(time.get("metric").asString()).isEqualTo("time-per-op");
    assertThat(time.get("baselineVersion").asString()).isEqualTo("1.5.19-4");
    assertThat(time.get("version").asString()).isEqualTo("1.5.24-2");
    assertThat(time.get("ratio").asDouble()).as("the pair's own trimmed means").isCloseTo(2.67, within(0.1));
    assertThat(time.get("status").asString()).isEqualTo("open");
    JsonNode listed = regressions("");
    assertThat(listed.size()).isEqualTo(1);
    assertThat(listed.get(0).get("hints").get(0).get("metric").asString()).isEqualTo("ctx-switches-per-op");
    assertThat(listed.get(0).get("hints").get(0).get("ratio").asDouble()).isCloseTo(400, within(20.0));
  }

  @Test
  void showsOneRegressionByIdInTheWireSpellingAndAnUnknownOneAsA404Problem() {
    List.of("3.0.1", "3.0.2", "3.0.3", "3.0.4").forEach(v -> upload(v, write64b(18), contextSwitches(5)));
    long id = upload("3.0.5", write64b(48), contextSwitches(2000)).json().get("regressions").get(0).get("id").asLong();

    Http.Response one = http().get("/api/v1/regressions/" + id);
    Http.Response unknown = http().get("/api/v1/regressions/999999999");
    Http.Response badStatus = http().get("/api/v1/regressions?status=open,gone");

    assertThat(one.status()).as(one.body()).isEqualTo(200);
    JsonNode r = one.json();
    assertThat(r.get("id").asLong()).isEqualTo(id);
    assertThat(r.get("direction").asString()).isEqualTo("lower_is_better");
    assertThat(r.get("kind").asString()).isEqualTo("regression");
    assertThat(r.get("status").asString()).isEqualTo("open");
    assertThat(r.get("version").asString()).isEqualTo("3.0.5");
    assertThat(r.get("hints").get(0).get("metric").asString()).isEqualTo("ctx-switches-per-op");
    assertThat(r.get("history").isArray()).isTrue();
    assertThat(r.get("bisection").isNull()).isTrue();
    assertThat(regressions("&status=all").findValuesAsString("id")).contains(Long.toString(id));
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.body()).contains("no regression 999999999");
    assertThat(badStatus.status()).isEqualTo(400);
    assertThat(badStatus.json().get("fields").get(0).get("field").asString()).isEqualTo("status");
  }

  static final String CONTEXT_SWITCH_REGRESSION = """
      INSERT INTO regression (series_id, baseline_version_id, version_id, kind, baseline_value, value, ratio, p_value)
      SELECT s.id, bv.id, v.id, 'regression', 5, 2000, 400, 1e-6
      FROM series s JOIN product p ON p.id = s.product_id JOIN machine m ON m.id = s.machine_id
      JOIN version bv ON bv.product_id = p.id AND bv.name = ? JOIN version v ON v.product_id = p.id AND v.name = ?
      WHERE p.name = ? AND m.name = ? AND s.metric = 'ctx-switches-per-op'""";

  @Test
  void withdrawsAContextSwitchRegressionRaisedBeforeSecondaryMetricsWereHints() {
    List.of("7.1", "7.2").forEach(v -> upload(v, write64b(18), contextSwitches(5)));
    jdbc.sql(CONTEXT_SWITCH_REGRESSION).params("7.1", "7.2", product, machine).update();

    upload("7.3", write64b(18), contextSwitches(5));

    assertThat(regressions("").size()).isZero();
    JsonNode withdrawn = regressions("&status=withdrawn");
    assertThat(withdrawn.size()).isEqualTo(1);
    assertThat(withdrawn.get(0).get("metric").asString()).isEqualTo("ctx-switches-per-op");
    assertThat(withdrawn.get(0).get("withdrawnReason").asString()).startsWith("secondary metric");
  }

  @Test
  void triagesARegressionWithATokenAndKeepsItsStatus() {
    List.of("2.0.1", "2.0.2", "2.0.3", "2.0.4").forEach(v -> upload(v, write64b(18)));
    long id = upload("2.0.5", write64b(48)).json().get("regressions").get(0).get("id").asLong();

    Http.Response anonymous = http().patchJson("/api/v1/regressions/" + id, "{\"status\":\"acknowledged\"}", null);
    Http.Response wrong = http().patchJson("/api/v1/regressions/" + id, "{\"status\":\"gone\"}", ADMIN_TOKEN);
    Http.Response ok = http().patchJson("/api/v1/regressions/" + id,
        "{\"status\":\"acknowledged\",\"note\":\"sig_dispatch_pending, see seed 003\"}", ADMIN_TOKEN);
    upload("2.0.6", write64b(48));

    assertThat(anonymous.status()).isEqualTo(401);
    assertThat(wrong.status()).isEqualTo(400);
    assertThat(wrong.json().get("detail").asString()).as("what triage may set, said once")
        .isEqualTo("status: must be one of open, acknowledged, invalid, fixed, wontfix, got: gone");
    assertThat(ok.status()).as(ok.body()).isEqualTo(200);
    JsonNode listed = regressions("&status=acknowledged");
    assertThat(listed.size()).isEqualTo(1);
    assertThat(listed.get(0).get("note").asString()).contains("sig_dispatch_pending");
    assertThat(listed.get(0).get("triagedBy").isNull()).isFalse();
    assertThat(http().patchJson("/api/v1/regressions/999999999", "{\"status\":\"fixed\"}", ADMIN_TOKEN).status())
        .isEqualTo(404);
  }

  @Test
  void reAttributesTheStepWhenAnOlderVersionIsBackfilled() {
    List.of("3.1", "3.2", "3.3", "3.4", "3.5").forEach(v -> upload(v, write64b(18)));
    upload("3.7", write64b(48));
    upload("3.8", write64b(48));
    assertThat(regressions("").get(0).get("baselineVersion").asString()).isEqualTo("3.5");
    assertThat(regressions("").get(0).get("version").asString()).isEqualTo("3.7");

    upload("3.6", write64b(48));

    JsonNode listed = regressions("");
    assertThat(listed.size()).isEqualTo(1);
    assertThat(listed.get(0).get("baselineVersion").asString()).isEqualTo("3.5");
    assertThat(listed.get(0).get("version").asString()).isEqualTo("3.6");
  }

  @Test
  void aReattributedRegressionQuotesTheCurrentPairEverywhereAndKeepsItsHistory() {
    List.of("6.1", "6.2", "6.3", "6.4", "6.5").forEach(v -> upload(v, write64b(18)));
    upload("6.7", write64b(48));
    upload("6.8", write64b(48));
    upload("6.6", write64b(30));

    JsonNode listed = regressions("");
    assertThat(listed.size()).isEqualTo(1);
    JsonNode api = http().get("/api/v1/regressions/" + listed.get(0).get("id").asLong()).json();
    String base = api.get("baselineVersion").asString();
    String head = api.get("version").asString();
    assertThat(base + " → " + head).isIn("6.5 → 6.6", "6.6 → 6.7");
    JsonNode compared = http().get("/api/v1/compare?product=" + product + "&machine=" + machine + "&base=" + base
        + "&head=" + head).json().get("rows").get(0);
    for (String field : List.of("baselineValue", "value", "ratio", "pValue")) {
      assertThat(listed.get(0).get(field).asDouble()).as(field).isEqualTo(api.get(field).asDouble());
    }
    assertThat(api.get("baselineValue").asDouble()).isCloseTo(compared.get("baseValue").asDouble(), within(1e-9));
    assertThat(api.get("value").asDouble()).isCloseTo(compared.get("headValue").asDouble(), within(1e-9));
    assertThat(api.get("ratio").asDouble()).isCloseTo(compared.get("ratio").asDouble(), within(1e-9));

    org.perftrack.server.pages.Fmt fmt = new org.perftrack.server.pages.Fmt();
    String page = http().get("/regressions/" + api.get("id").asLong()).body();
    String list = http().get("/regressions?product=" + product).body();
    String comparePage = http().get("/compare?product=" + product + "&machine=" + machine + "&base=" + base
        + "&head=" + head).body();
    for (String html : List.of(page, comparePage)) {
      assertThat(html).contains(fmt.num(api.get("baselineValue").asDouble()), fmt.num(api.get("value").asDouble()),
          fmt.ratio(api.get("ratio").asDouble()));
    }
    assertThat(list).contains(base, head,
        org.springframework.web.util.HtmlUtils.htmlEscape(fmt.p(api.get("pValue").asDouble())));

    JsonNode history = api.get("history");
    assertThat(history.get(0).get("action").asString()).isEqualTo("opened");
    assertThat(history.get(0).get("version").asString()).isEqualTo("6.7");
    assertThat(history.get(history.size() - 1).get("action").asString()).isEqualTo("reattributed");
    assertThat(history.get(history.size() - 1).get("reason").asString()).contains("6.5 → 6.7");
    assertThat(page).contains("History", "reattributed", "opened");
  }

  @Test
  void withdrawnRegressionsAreListedWithTheirReasonUnderWithdrawnAndAll() {
    for (int v = 1; v <= 10; v++) {
      upload("7." + v, write64b(100));
    }
    upload("7.11", write64b(160));
    upload("7.12", write64b(100));
    upload("7.13", write64b(100));

    JsonNode all = regressions("&status=all");
    assertThat(all.size()).isEqualTo(1);
    assertThat(all.get(0).get("status").asString()).isEqualTo("withdrawn");
    assertThat(all.get(0).get("history").get(1).get("action").asString()).isEqualTo("withdrawn");
    String reason = all.get(0).get("withdrawnReason").asString();
    String escaped = org.springframework.web.util.HtmlUtils.htmlEscape(reason);
    assertThat(http().get("/regressions?product=" + product + "&status=withdrawn").body()).contains(escaped);
    assertThat(http().get("/regressions?product=" + product + "&status=all").body()).contains(escaped);
    assertThat(http().get("/regressions?product=" + product).body()).doesNotContain(escaped);
    assertThat(http().get("/regressions/" + all.get(0).get("id").asLong()).body())
        .contains("Withdrawn by detection", escaped);
  }

  @Test
  void withdrawsAOneSessionBlipAndSaysWhy() {
    for (int v = 1; v <= 10; v++) {
      upload("4." + v, write64b(100));
    }
    assertThat(upload("4.11", write64b(160)).json().get("regressions").size()).isEqualTo(1);

    upload("4.12", write64b(100));
    upload("4.13", write64b(100));

    assertThat(regressions("").size()).isZero();
    JsonNode withdrawn = regressions("&status=withdrawn");
    assertThat(withdrawn.size()).isEqualTo(1);
    assertThat(withdrawn.get(0).get("withdrawnReason").asString()).startsWith("reverted").contains("4.11");
  }

  @Test
  void aWithdrawnBandwidthStepSaysWhyInGigabytesOnTheApiAndItsPage() {
    java.util.function.DoubleFunction<ResultUpload> bandwidth = level -> new ResultUpload("pipe-bw/65536",
        "bandwidth", "B/s", RunUpload.HIGHER_IS_BETTER, samples(level));
    for (int v = 1; v <= 10; v++) {
      upload("8." + v, bandwidth.apply(3.18e9));
    }
    assertThat(upload("8.11", bandwidth.apply(1.092e9)).json().get("regressions").size()).isEqualTo(1);
    upload("8.12", bandwidth.apply(3.18e9));
    upload("8.13", bandwidth.apply(3.18e9));

    JsonNode withdrawn = regressions("&status=withdrawn");
    assertThat(withdrawn.size()).isEqualTo(1);
    String reason = withdrawn.get(0).get("withdrawnReason").asString();
    assertThat(reason).containsPattern("back at 3\\.1\\d* GB/s \\(baseline 3\\.1\\d* GB/s\\)")
        .doesNotContain("e+09");
    assertThat(withdrawn.get(0).get("history").findValuesAsString("reason")).contains(reason);
    String page = org.springframework.web.util.HtmlUtils.htmlUnescape(
        http().get("/regressions/" + withdrawn.get(0).get("id").asLong()).body());
    assertThat(page).contains("Withdrawn by detection", reason).doesNotContain("e+09");
  }

  @Test
  void anEmptyFilterIsNoFilterAsOnTheOtherLists() {
    for (int v = 1; v <= 4; v++) {
      upload("9." + v, write64b(18));
    }
    long id = upload("9.5", write64b(48)).json().get("regressions").get(0).get("id").asLong();

    for (String query : List.of("?product=&machine=" + machine, "?machine=" + machine + "&product=&version=&status=",
        "?product=" + product + "&machine=")) {
      Http.Response r = http().get("/api/v1/regressions" + query);
      assertThat(r.status()).as(query + ": " + r.body()).isEqualTo(200);
      assertThat(r.json().findValues("id")).as(query).extracting(JsonNode::asLong).containsExactly(id);
    }
  }

  @Test
  void anIgnoredBenchmarkRaisesNothing() {
    upload("5.1", write64b(18));
    Http.Response put = http().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
            "http://localhost:" + port + "/api/v1/benchmark-settings/" + product + "/write-64b"))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + ADMIN_TOKEN)
        .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("{\"ignored\":true}")));
    assertThat(put.status()).as(put.body()).isEqualTo(200);

    assertThat(upload("5.2", write64b(48)).json().get("regressions").size()).isZero();
    assertThat(http().get("/api/v1/benchmark-settings?product=" + product).json().get(0).get("ignored").asBoolean())
        .isTrue();
    Http.Response negative = http().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(
            "http://localhost:" + port + "/api/v1/benchmark-settings/" + product + "/write-64b"))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + ADMIN_TOKEN)
        .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("{\"minChange\":-1}")));
    assertThat(negative.status()).isEqualTo(400);
    assertThat(negative.json().get("detail").asString()).as("a percentage written as the pages write it")
        .isEqualTo("minChange: must be a fraction in [0, 10), e.g. 0.05 for 5%");
  }

  @Test
  void resendingARunAnswersWithTheRegressionsItCreated() {
    upload("6.1", write64b(18));
    String body = json(run(product, "6.2", machine, write64b(48)));
    Http.Response first = http().postJson("/api/v1/runs", body, TOKEN);
    Http.Response again = http().postJson("/api/v1/runs", body, TOKEN);

    assertThat(first.json().get("regressions").size()).isEqualTo(1);
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json().get("regressions").get(0).get("id").asLong())
        .isEqualTo(first.json().get("regressions").get(0).get("id").asLong());
  }
}
