package org.perftrack.server.browser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import jakarta.mail.MessagingException;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.perftrack.server.alerts.Mailbox;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.server.security.Scope;
import org.perftrack.server.support.Http;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * Bug links: set by API (triage scope; http/https only, a 400 naming the entry) and on the page's Bugs card, shown on
 * the regression and summary pages, in the regression list and on home, and in the summary's mail; the product's
 * "File a bug" link opens GitHub's new-issue form with the summary's title and a body naming versions, members and
 * links. Laptop and phone.
 */
class BugLinksInBrowserTest extends BrowserTest {

  static final String ISSUE = "https://github.com/cygwin/cygwin/issues/12";
  static final String NEW_ISSUE = "https://github.com/cygwin/cygwin/issues/new?title={title}&body={body}";
  @RegisterExtension
  static final Mailbox mailbox = Mailbox.forTheSharedContext();

  @Test
  void badBugAddressesAndTemplatesAreRefusedNamingTheFieldAndOnlyTriageSetsBugs() {
    String product = unique("cygwin");
    JsonNode step = step(product, unique("xp"));
    String summary = "/api/v1/summaries/" + step.get("summaryId").asLong() + "/bugs";
    String triage = token(Scope.TRIAGE);

    Http.Response script = put(summary, Map.of("urls", List.of(ISSUE, "javascript:alert(1)")), triage);
    assertThat(script.status()).isEqualTo(400);
    assertThat(script.body()).contains("urls[1]", "http or https");
    assertThat(put(summary, Map.of("urls", List.of("x".repeat(2001))), triage).body()).contains("urls[0]", "2000");
    assertThat(put(summary, Map.of(), triage).body()).contains("\"urls\"");
    assertThat(http().get(summary).json().get("urls")).as("nothing half-stored").isEmpty();
    assertThat(put(summary, Map.of("urls", List.of(ISSUE)), TOKEN).status()).as("upload and read").isEqualTo(403);
    assertThat(put("/api/v1/summaries/999999999/bugs", Map.of("urls", List.of(ISSUE)), triage).status())
        .isEqualTo(404);
    assertThat(put("/api/v1/regressions/999999999/bugs", Map.of("urls", List.of(ISSUE)), triage).status())
        .isEqualTo(404);

    String template = "/api/v1/products/" + product + "/new-bug-url";
    Http.Response unknown = put(template, Map.of("newBugUrl", "https://x.org/new?t={title}&a={assignee}"), ADMIN_TOKEN);
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.body()).contains("newBugUrl", "{assignee}");
    assertThat(put(template, Map.of("newBugUrl", NEW_ISSUE), triage).status()).as("admin only").isEqualTo(403);
    assertThat(put("/api/v1/products/" + unique("none") + "/new-bug-url", Map.of("newBugUrl", NEW_ISSUE),
        ADMIN_TOKEN).status()).isEqualTo(404);

    String docs = http().get("/v3/api-docs").body();
    assertThat(docs).contains("/api/v1/summaries/{id}/bugs", "/api/v1/regressions/{id}/bugs",
        "/api/v1/products/{product}/new-bug-url");
  }

  @Test
  void aBugLinkedOnThePageShowsOnThePagesTheListsAndInTheMailAndFileABugIsPrefilled() throws Exception {
    String product = unique("cygwin");
    String machine = unique("xp");
    JsonNode step = step(product, machine);
    long id = step.get("id").asLong();
    long summary = step.get("summaryId").asLong();
    assertThat(put("/api/v1/products/" + product + "/new-bug-url", Map.of("newBugUrl", NEW_ISSUE), ADMIN_TOKEN)
        .status()).isEqualTo(200);
    assertThat(put("/api/v1/regressions/" + id + "/bugs", Map.of("urls", List.of(ISSUE + "#step")),
        token(Scope.TRIAGE)).json().get("urls")).extracting(JsonNode::asString).containsExactly(ISSUE + "#step");

    signIn();
    open("/summaries/" + summary);
    assertThat(text(By.id("bugs"))).contains("Bugs", "No bug linked yet.");
    String file = browser.driver.findElement(By.id("file-a-bug")).getAttribute("href");
    String decoded = URLDecoder.decode(file, StandardCharsets.UTF_8);
    assertThat(file).startsWith("https://github.com/cygwin/cygwin/issues/new?title=" + product + "%201.5.24-2");
    assertThat(decoded).contains("body=perftrack: " + PUBLIC_URL + "/summaries/" + summary,
        "Versions: 1.5.19-4 → 1.5.24-2", "- write-64b time-per-op on " + machine + ": ×",
        PUBLIC_URL + "/regressions/" + id);
    browser.driver.findElement(By.id("bug-url")).sendKeys(ISSUE);
    browser.driver.findElement(By.xpath("//form[contains(@class,'bug-form')]//button[text()='Link']")).click();
    awaitText(By.cssSelector("#bugs .note"), "Saved.");
    assertThat(browser.driver.findElement(By.cssSelector("#bugs .bug-links a")).getText()).isEqualTo(ISSUE);
    browser.screenshot("bugs-summary-laptop", 1366);
    browser.screenshot("bugs-summary-phone", 390);
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    assertThat((Long) ((org.openqa.selenium.JavascriptExecutor) browser.driver).executeScript(
        "var c = document.getElementById('bugs'); return c.scrollWidth - c.clientWidth;"))
        .as("the Bugs card fits a phone: a long address wraps").isLessThanOrEqualTo(0L);
    assertThat(browser.controlsWithoutVisibleName()).isEmpty();

    open("/regressions/" + id);
    assertThat(text(By.id("bugs"))).contains(ISSUE + "#step").contains("Remove");
    browser.screenshot("bugs-regression-phone", 390);
    assertThat(browser.overflowAtPhoneSize()).isEmpty();
    open("/regressions?product=" + product + "&status=all");
    assertThat(text(By.cssSelector("#regressions .bug-count"))).isEqualTo("1 bug");
    open("/");
    assertThat(browser.driver.findElements(By.cssSelector(".summary-row")).stream().map(r -> r.getText())
        .filter(t -> t.contains(product))).singleElement().asString().contains("1 bug");
    assertThat(http().get("/api/v1/summaries/" + summary + "/bugs").json().get("urls"))
        .extracting(JsonNode::asString).containsExactly(ISSUE);
    assertThat(http().getWithToken("/api/v1/audit", ADMIN_TOKEN).body()).contains("bugs.set", "summary " + summary);

    jdbc.sql("UPDATE alert_outbox SET next_attempt_at = now() WHERE dedup_key = ?").param("summary-" + summary)
        .update();
    MimeMessage mail = await().atMost(Duration.ofSeconds(30)).until(() -> about(product), m -> m != null);
    assertThat(Mailbox.part(mail, "text/plain")).contains("  bug:        " + ISSUE + "#step",
        "  bug:        " + ISSUE);
    assertThat(Mailbox.part(mail, "text/html")).contains("<a href=\"" + ISSUE + "\">" + ISSUE + "</a>");
    assertThat(browser.severeConsoleMessages()).isEmpty();
  }

  /** The write-64b time-per-op step of a fresh history: its regression as the API lists it. */
  private JsonNode step(String product, String machine) {
    for (RunUpload run : StepFixtures.history(product, machine, "write-64b")) {
      assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    }
    return http().get("/api/v1/regressions?product=" + product).json().valueStream()
        .filter(r -> r.get("metric").asString().equals("time-per-op")).findFirst().orElseThrow();
  }

  private static MimeMessage about(String product) throws MessagingException {
    for (MimeMessage m : mailbox.awaitMessages(ALERT_RECIPIENT, 0, Duration.ofSeconds(1))) {
      if (m.getSubject().contains(product)) {
        return m;
      }
    }
    return null;
  }

  private Http.Response put(String path, Map<String, ?> body, String token) {
    return http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + token)
        .PUT(HttpRequest.BodyPublishers.ofString(json(body))));
  }

  private static String text(By by) {
    return browser.driver.findElement(by).getText();
  }
}
