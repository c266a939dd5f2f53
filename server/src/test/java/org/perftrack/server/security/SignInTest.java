package org.perftrack.server.security;

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
import org.perftrack.server.support.IntegrationTest;

class SignInTest extends IntegrationTest {

  @Test
  void theAdminSignsInWithTheConfiguredPasswordThroughACsrfProtectedForm() throws Exception {
    HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    String base = "http://localhost:" + port;
    String page = browser.send(HttpRequest.newBuilder(URI.create(base + "/login")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    Matcher csrf = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"").matcher(page);
    assertThat(csrf.find()).as("the sign-in form carries a CSRF token").isTrue();

    HttpResponse<String> withoutCsrf = post(browser, base, "username=admin&password=" + ADMIN_PASSWORD);
    HttpResponse<String> wrong = post(browser, base, "username=admin&password=nope&_csrf=" + enc(csrf.group(1)));
    HttpResponse<String> right = post(browser, base,
        "username=admin&password=" + enc(ADMIN_PASSWORD) + "&_csrf=" + enc(csrf.group(1)));

    assertThat(withoutCsrf.statusCode()).isEqualTo(403);
    assertThat(wrong.headers().firstValue("Location").orElse("")).contains("/login?error");
    assertThat(right.statusCode()).isEqualTo(302);
    assertThat(right.headers().firstValue("Location").orElse("")).doesNotContain("error");
  }

  @Test
  void passwordsAndTokensAreStoredHashed() {
    assertThat(jdbc.sql("SELECT password_hash FROM app_user WHERE username = 'admin'").query(String.class).single())
        .startsWith("{bcrypt}").doesNotContain(ADMIN_PASSWORD);
    assertThat(jdbc.sql("SELECT count(*) FROM api_token WHERE token_hash = ?").param(TOKEN).query(Long.class).single())
        .isZero();
    assertThat(jdbc.sql("SELECT count(*) FROM api_token WHERE token_hash = ?").param(new TokenHash(TOKEN_PEPPER).of(TOKEN))
        .query(Long.class).single()).isEqualTo(1);
  }

  private static HttpResponse<String> post(HttpClient browser, String base, String form) throws Exception {
    return browser.send(HttpRequest.newBuilder(URI.create(base + "/login"))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
