package org.perftrack.server.changes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.perftrack.server.alerts.Mailbox;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;

/** A product's links to what changed, set by API, on the regression and summary pages and in the summary's mail. */
class ChangeLinksTest extends IntegrationTest {

  static final String RANGE = "https://example.org/compare/{from}...{to}";
  static final String VERSION = "https://example.org/releases/{version}";
  @RegisterExtension
  static final Mailbox mailbox = Mailbox.forTheSharedContext();

  @Test
  void theStepsRangeAndVersionLinkToTheirChangesOnThePagesAndInTheMail() throws Exception {
    String product = unique("cygwin");
    String machine = unique("xp");
    for (RunUpload run : StepFixtures.history(product, machine, "write-64b")) {
      assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    }
    var regression = http().get("/api/v1/regressions?product=" + product).json().valueStream()
        .filter(r -> r.get("metric").asString().equals("time-per-op")).findFirst().orElseThrow();
    long id = regression.get("id").asLong();
    long summary = regression.get("summaryId").asLong();
    assertThat(http().page("/regressions/" + id).body()).as("no template, no link").doesNotContain("What changed");

    assertThat(put(product, Map.of("versionUrl", VERSION, "rangeUrl", RANGE), ADMIN_TOKEN).status()).isEqualTo(200);

    String page = http().page("/regressions/" + id).body();
    assertThat(page).contains("What changed:",
        "href=\"https://example.org/compare/1.5.19-4...1.5.24-2\">changes from 1.5.19-4 to 1.5.24-2</a>",
        "href=\"https://example.org/releases/1.5.24-2\">changes in 1.5.24-2</a>");
    assertThat(http().page("/summaries/" + summary).body()).contains(
        "href=\"https://example.org/compare/1.5.19-4...1.5.24-2\">changes 1.5.19-4 → 1.5.24-2</a>",
        "href=\"https://example.org/releases/1.5.24-2\">changes in 1.5.24-2</a>");

    jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE dedup_key = ?").param("summary-" + summary)
        .update();
    MimeMessage mail = await().atMost(Duration.ofSeconds(30)).until(() -> about(product), m -> m != null);
    assertThat(Mailbox.part(mail, "text/plain"))
        .contains("  changes:    https://example.org/compare/1.5.19-4...1.5.24-2");
    assertThat(Mailbox.part(mail, "text/html"))
        .contains("<a href=\"https://example.org/compare/1.5.19-4...1.5.24-2\">changes</a>");
  }

  @Test
  void theRunReportTheRunPageAndCompareLinkOnlyAdjacentVersionsRange() {
    String product = unique("cygwin");
    String machine = unique("xp");
    List<RunUpload> runs = StepFixtures.history(product, machine, "write-64b");
    for (RunUpload run : runs) {
      assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    }
    String step = runs.get(StepFixtures.VERSIONS.indexOf(StepFixtures.STEP)).id();
    assertThat(http().get("/api/v1/runs/" + step + "/report").body()).doesNotContain("What changed");
    assertThat(put(product, Map.of("versionUrl", VERSION, "rangeUrl", RANGE), ADMIN_TOKEN).status()).isEqualTo(200);

    assertThat(http().get("/api/v1/runs/" + step + "/report").body()).contains("What changed: [changes from "
        + "`1.5.19-4` to `1.5.24-2`](https://example.org/compare/1.5.19-4...1.5.24-2) · [changes in `1.5.24-2`]"
        + "(https://example.org/releases/1.5.24-2)\n");
    assertThat(http().get("/api/v1/runs/" + runs.get(0).id() + "/report").body())
        .as("nothing changed, nothing to link").doesNotContain("What changed");
    assertThat(http().page("/runs/" + step).text()).contains("1.5.19-4 → 1.5.24-2 ×",
        "changes from 1.5.19-4 to 1.5.24-2");

    String compare = "/compare?product=" + product + "&machine=" + machine + "&head=1.5.24-2&base=";
    assertThat(http().page(compare + "1.5.19-4").text())
        .contains("What changed: changes from 1.5.19-4 to 1.5.24-2 · changes in 1.5.24-2");
    String wide = http().page(compare + "1.5.18-1").body();
    assertThat(wide).as("a range that is not adjacent is not linked").doesNotContain("example.org/compare/")
        .contains("changes in 1.5.24-2</a>", "(no link to the whole range: the two versions are not adjacent)");
  }

  /** A bisection's last good and first bad version: linked on the regression and lab pages and in its mail. */
  @Test
  void aBisectionsResultLinksTheChangesBetweenItsLastGoodAndFirstBadVersion() throws Exception {
    String product = unique("cygwin");
    String machine = unique("lab");
    org.perftrack.server.lab.FakeAgent fake = new org.perftrack.server.lab.FakeAgent(http(), TOKEN, product, machine);
    fake.upload(java.util.UUID.randomUUID().toString(), "2.1", 10);
    var created = http().postJson("/api/v1/runs", json(org.perftrack.server.support.Fixtures.run(product, "2.8",
        machine, org.perftrack.server.support.Fixtures.result("spawn", 29.7, 30.3, 30, 29.85, 30.15))), TOKEN);
    long regression = created.json().get("regressions").get(0).get("id").asLong();
    assertThat(put(product, Map.of("versionUrl", VERSION, "rangeUrl", RANGE), ADMIN_TOKEN).status()).isEqualTo(200);
    fake.register("2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8");
    fake.bisect(regression, v -> v.compareTo("2.6") >= 0 ? 30.0 : 10.0);

    assertThat(http().page("/regressions/" + regression).text())
        .contains("first bad version 2.6 (last good 2.5)", "What changed: changes from 2.5 to 2.6 · changes in 2.6");
    assertThat(http().page("/lab").body()).contains("href=\"https://example.org/compare/2.5...2.6\">· what changed");

    jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE kind = 'lab' AND subject LIKE ?")
        .param("%" + machine + "%").update();
    MimeMessage mail = await().atMost(Duration.ofSeconds(30)).until(() -> about(machine), m -> m != null);
    assertThat(Mailbox.part(mail, "text/plain").replace("\r\n", "\n")).contains("first bad version 2.6 (last good 2.5)"
        + ", 3 rounds\nWhat changed from 2.5 to 2.6: https://example.org/compare/2.5...2.6\n");
    assertThat(Mailbox.part(mail, "text/html")).contains("What changed from 2.5 to 2.6: https://example.org/compare/2.5...2.6");
  }

  @Test
  void badTemplatesAreRefusedNamingTheFieldAndOnlyAnAdminSetsThem() {
    String product = unique("cygwin");
    String machine = unique("xp");
    List<RunUpload> runs = StepFixtures.history(product, machine, "write-64b");
    assertThat(http().postJson("/api/v1/runs", json(runs.get(0)), TOKEN).status()).isEqualTo(201);

    var ftp = put(product, Map.of("versionUrl", "ftp://example.org/{version}"), ADMIN_TOKEN);
    var unknown = put(product, Map.of("versionUrl", VERSION, "rangeUrl", "https://x.org/{from}..{head}"), ADMIN_TOKEN);
    var notAUrl = put(product, Map.of("rangeUrl", "compare {from} {to}"), ADMIN_TOKEN);
    var noBody = http().send(request(product, ADMIN_TOKEN).PUT(HttpRequest.BodyPublishers.noBody()));

    assertThat(ftp.status()).isEqualTo(400);
    assertThat(ftp.body()).contains("versionUrl", "http or https");
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.body()).contains("rangeUrl", "{head}");
    assertThat(notAUrl.status()).isEqualTo(400);
    assertThat(notAUrl.body()).contains("rangeUrl");
    assertThat(noBody.status()).isEqualTo(400);
    assertThat(http().get("/api/v1/products/" + product + "/change-links").body())
        .as("nothing half-stored").doesNotContain("example.org");
    assertThat(put(product, Map.of("rangeUrl", RANGE), TOKEN).status()).as("an upload token").isEqualTo(403);
    assertThat(put(unique("none"), Map.of("rangeUrl", RANGE), ADMIN_TOKEN).status()).isEqualTo(404);

    var operation = http().get("/v3/api-docs").json().get("paths").get("/api/v1/products/{product}/change-links");
    assertThat(operation.get("put").get("responses").propertyNames()).contains("200", "400", "401", "403", "404");
    assertThat(operation.get("get").get("responses").propertyNames()).contains("200", "404");
  }

  @Test
  void valuesAreUrlEncodedIntoTheTemplate() {
    assertThat(ChangeLinks.fill("https://x.org/log?from={from}&to={to}", Map.of("from", "1.0 rc/1", "to", "2.0&x")))
        .isEqualTo("https://x.org/log?from=1.0%20rc%2F1&to=2.0%26x");
  }

  private static MimeMessage about(String product) throws MessagingException {
    for (MimeMessage m : mailbox.awaitMessages(ALERT_RECIPIENT, 0, Duration.ofSeconds(1))) {
      if (m.getSubject().contains(product)) {
        return m;
      }
    }
    return null;
  }

  private Http.Response put(String product, Map<String, String> body, String token) {
    return http().send(request(product, token).PUT(HttpRequest.BodyPublishers.ofString(json(body))));
  }

  private HttpRequest.Builder request(String product, String token) {
    return HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/products/" + product + "/change-links"))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + token);
  }
}
