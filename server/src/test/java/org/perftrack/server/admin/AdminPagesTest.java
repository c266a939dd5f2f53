package org.perftrack.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.IntegrationTest;

class AdminPagesTest extends IntegrationTest {

  private final HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

  @Test
  void theAdminPageNeedsASignedInAdmin() throws Exception {
    HttpResponse<String> anonymous = get("/admin");
    assertThat(anonymous.statusCode()).isEqualTo(302);
    assertThat(anonymous.headers().firstValue("Location").orElse("")).endsWith("/login");

    String user = Fixtures.unique("alice");
    signIn("admin", ADMIN_PASSWORD);
    post("/admin/users", "username=" + user + "&password=correct-horse-battery&role=USER");
    signOut();
    signIn(user, "correct-horse-battery");

    assertThat(get("/admin").statusCode()).isEqualTo(403);
  }

  @Test
  void aRevokedTokenNoLongerUploadsAndFormsWithoutCsrfAreRefused() throws Exception {
    signIn("admin", ADMIN_PASSWORD);
    post("/admin/tokens", "name=" + Fixtures.unique("ci") + "&scope=upload&scope=read");
    String page = get("/admin").body();
    Matcher token = Pattern.compile("id=\"new-token\">(pt_[^<]+)<").matcher(page);
    assertThat(token.find()).isTrue();
    Matcher revoke = Pattern.compile("action=\"/admin/tokens/(\\d+)/revoke\"").matcher(page);
    String id = null;
    while (revoke.find()) {
      id = revoke.group(1); // the newest token is listed last
    }

    HttpResponse<String> withoutCsrf = browser.send(HttpRequest.newBuilder(URI.create(base() + "/admin/tokens/" + id + "/revoke"))
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(withoutCsrf.statusCode()).isEqualTo(403);
    String run = Fixtures.json(Fixtures.run(Fixtures.unique("p"), "1.0", Fixtures.unique("m"), Fixtures.result("fork", 1.0)));
    assertThat(http().postJson("/api/v1/runs", run, token.group(1)).status()).isEqualTo(201);

    post("/admin/tokens/" + id + "/revoke", "");

    String again = Fixtures.json(Fixtures.run(Fixtures.unique("p"), "1.0", Fixtures.unique("m"), Fixtures.result("fork", 1.0)));
    assertThat(http().postJson("/api/v1/runs", again, token.group(1)).status()).isEqualTo(401);
    assertThat(get("/admin").body()).doesNotContain(token.group(1));
  }

  @Test
  void aTooShortPasswordIsRefusedWithAMessageNamingTheField() throws Exception {
    signIn("admin", ADMIN_PASSWORD);
    post("/admin/users", "username=" + Fixtures.unique("bob") + "&password=short&role=USER");

    assertThat(get("/admin").body()).contains("Password: at least 10 characters.");
  }

  private void signIn(String user, String password) throws Exception {
    post("/login", "username=" + enc(user) + "&password=" + enc(password));
  }

  private void signOut() throws Exception {
    post("/logout", "");
  }

  /** A form post as the browser sends it: with the CSRF token of the page it came from. */
  private HttpResponse<String> post(String path, String form) throws Exception {
    String page = get(path.equals("/login") ? "/login" : "/").body();
    Matcher csrf = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page);
    assertThat(csrf.find()).as("a CSRF token on the page").isTrue();
    String body = (form.isEmpty() ? "" : form + "&") + "_csrf=" + enc(csrf.group(1));
    return browser.send(HttpRequest.newBuilder(URI.create(base() + path))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return browser.send(HttpRequest.newBuilder(URI.create(base() + path)).header("Accept", "text/html").build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private String base() {
    return "http://localhost:" + port;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
