package org.perftrack.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;
import static org.perftrack.server.support.FormClient.enc;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.FormClient;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;

/** Subscriptions over the API (Bearer token, also for reading: addresses are personal) and on the page (CSRF). */
class SubscriptionsTest extends IntegrationTest {

  static final String PAGE = "/alerts/subscriptions";

  @Test
  void theApiCreatesListsAndRemovesSubscriptionsWithATokenOnly() {
    String email = unique("api") + "@example.org";
    String body = json(Map.of("email", email, "product", "cygwin", "benchmark", "pipe-bw/*",
        "minChangePercent", 10, "mode", "digest"));

    assertThat(http().postJson("/api/v1/subscriptions", body, null).status()).isEqualTo(401);
    assertThat(http().get("/api/v1/subscriptions").status()).as("addresses are not public").isEqualTo(401);
    Http.Response created = http().postJson("/api/v1/subscriptions", body, ADMIN_TOKEN);
    assertThat(created.status()).isEqualTo(201);
    long id = created.json().get("id").asLong();
    assertThat(created.json().get("benchmark").asString()).isEqualTo("pipe-bw/*");
    assertThat(created.json().get("mode").asString()).isEqualTo("digest");
    assertThat(created.body()).as("the unsubscribe token stays in the mails").doesNotContain("unsubscribe");

    assertThat(http().getWithToken("/api/v1/subscriptions", ADMIN_TOKEN).body()).contains(email);
    assertThat(http().getWithToken("/api/v1/subscriptions/" + id, ADMIN_TOKEN).json().get("minChangePercent").asDouble())
        .isEqualTo(10.0);
    assertThat(delete("/api/v1/subscriptions/" + id).statusCode()).isEqualTo(204);
    assertThat(delete("/api/v1/subscriptions/" + id).statusCode()).isEqualTo(404);
    assertThat(http().getWithToken("/api/v1/subscriptions", ADMIN_TOKEN).body()).doesNotContain(email);
  }

  @Test
  void badSubscriptionsAreRefusedNamingEachField() {
    String body = json(Map.of("email", "not an address", "minChangePercent", -5, "mode", "hourly"));

    Http.Response r = http().postJson("/api/v1/subscriptions", body, ADMIN_TOKEN);

    assertThat(r.status()).isEqualTo(400);
    assertThat(r.contentType()).startsWith("application/problem+json");
    assertThat(r.json().get("fields").findValuesAsString("field"))
        .containsExactlyInAnyOrder("email", "minChangePercent", "mode");
  }

  @Test
  void aSignedInUserSubscribesOnThePageThroughACsrfProtectedForm() throws Exception {
    FormClient browser = formClient();
    assertThat(browser.get("/alerts/subscriptions").statusCode()).as("anonymous: to sign-in").isEqualTo(302);
    browser.signedIn("admin", ADMIN_PASSWORD);
    String page = browser.get("/alerts/subscriptions").body();
    assertThat(page).contains("Mail subscriptions", "name=\"_csrf\"");
    assertThat(org.springframework.web.util.HtmlUtils.htmlUnescape(page.replaceAll("<[^>]+>", " ").replaceAll("\\s+", " ")))
        .as("what a mail is, as README says: one per new summary, not one per upload")
        .contains("At once, one mail per version that got slower", "Daily digest of open regressions",
            "one mail for all the machines and benchmarks it slowed")
        .doesNotContain("one mail per upload");
    String email = unique("page") + "@example.org";
    String form = "email=" + enc(email) + "&product=cygwin&machine=xp-lab-*&benchmark=&minChangePercent=25&mode=immediate";

    assertThat(browser.postWithoutCsrf(PAGE, form).statusCode()).as("no CSRF token").isEqualTo(403);
    var created = browser.post(PAGE, PAGE, form);
    assertThat(created.statusCode()).isEqualTo(302);
    String after = browser.get(PAGE).body();
    assertThat(after).contains("Subscribed " + email, "xp-lab-*", "25.0");
    var bad = browser.post(PAGE, PAGE, "email=nope");
    assertThat(bad.body()).contains("was not saved", "email: must be one email address");
    var notANumber = browser.post(PAGE, PAGE, "email=" + enc(email) + "&minChangePercent=ten");
    assertThat(notANumber.statusCode()).isEqualTo(200);
    assertThat(notANumber.body()).contains("was not saved", "minChangePercent: is not valid: ten");
  }

  private HttpResponse<String> delete(String path) {
    try {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
          .header("Authorization", "Bearer " + ADMIN_TOKEN).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
