package org.perftrack.server.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.FormClient;
import org.perftrack.server.support.IntegrationTest;

class AdminPagesTest extends IntegrationTest {

  private FormClient browser;

  @BeforeEach
  void signedOut() {
    browser = formClient();
  }

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

    HttpResponse<String> withoutCsrf = browser.postWithoutCsrf("/admin/tokens/" + id + "/revoke", "");
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

  private void signIn(String user, String password) {
    browser.signedIn(user, password);
  }

  private void signOut() {
    browser.post("/", "/logout", "");
  }

  /** A form post as the browser sends it: with the CSRF token of the page it came from. */
  private HttpResponse<String> post(String path, String form) {
    return browser.post("/", path, form);
  }

  private HttpResponse<String> get(String path) {
    return browser.get(path);
  }
}
