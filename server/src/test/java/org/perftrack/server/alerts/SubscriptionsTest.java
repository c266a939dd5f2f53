package org.perftrack.server.alerts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;

/** Subscriptions over the API (Bearer token, also for reading: addresses are personal) and on the page (CSRF). */
class SubscriptionsTest extends IntegrationTest {

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
    HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    String base = "http://localhost:" + port;
    assertThat(send(browser, get(base + "/alerts/subscriptions")).statusCode()).as("anonymous: to sign-in").isEqualTo(302);
    signIn(browser, base);
    String page = send(browser, get(base + "/alerts/subscriptions")).body();
    assertThat(page).contains("Mail subscriptions", "name=\"_csrf\"");
    assertThat(org.springframework.web.util.HtmlUtils.htmlUnescape(page.replaceAll("<[^>]+>", " ").replaceAll("\\s+", " ")))
        .as("what a mail is, as README says: one per new summary, not one per upload")
        .contains("At once, one mail per version that got slower", "Daily digest of open regressions",
            "one mail for all the machines and benchmarks it slowed")
        .doesNotContain("one mail per upload");
    String email = unique("page") + "@example.org";
    String form = "email=" + enc(email) + "&product=cygwin&machine=xp-lab-*&benchmark=&minChangePercent=25&mode=immediate";

    assertThat(send(browser, post(base + "/alerts/subscriptions", form)).statusCode()).as("no CSRF token").isEqualTo(403);
    var created = send(browser, post(base + "/alerts/subscriptions", form + "&_csrf=" + enc(csrf(page))));
    assertThat(created.statusCode()).isEqualTo(302);
    String after = send(browser, get(base + "/alerts/subscriptions")).body();
    assertThat(after).contains("Subscribed " + email, "xp-lab-*", "25.0");
    var bad = send(browser, post(base + "/alerts/subscriptions", "email=nope&_csrf=" + enc(csrf(after))));
    assertThat(bad.body()).contains("was not saved", "email: must be one email address");
    var notANumber = send(browser, post(base + "/alerts/subscriptions",
        "email=" + enc(email) + "&minChangePercent=ten&_csrf=" + enc(csrf(after))));
    assertThat(notANumber.statusCode()).isEqualTo(200);
    assertThat(notANumber.body()).contains("was not saved", "minChangePercent: is not valid: ten");
  }

  static void signIn(HttpClient browser, String base) throws Exception {
    String login = send(browser, get(base + "/login")).body();
    var r = send(browser, post(base + "/login",
        "username=admin&password=" + enc(ADMIN_PASSWORD) + "&_csrf=" + enc(csrf(login))));
    assertThat(r.headers().firstValue("Location").orElse("")).doesNotContain("error");
  }

  static String csrf(String page) {
    Matcher m = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page);
    assertThat(m.find()).as("the page carries a CSRF token").isTrue();
    return m.group(1);
  }

  static HttpRequest get(String url) {
    return HttpRequest.newBuilder(URI.create(url)).GET().build();
  }

  static HttpRequest post(String url, String form) {
    return HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form)).build();
  }

  static HttpResponse<String> send(HttpClient client, HttpRequest request) throws Exception {
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
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
