package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.FormClient;
import org.perftrack.server.support.IntegrationTest;

/**
 * Issue 12 item 8: the session cookie is SameSite=Lax, pages carry a CSP without inline script, and only
 * an admin's pages say how long the server took ({@code Server-Timing}).
 */
class PageHeadersTest extends IntegrationTest {

  @org.springframework.beans.factory.annotation.Autowired
  private Users users;

  @Test
  void serverTimingIsForAdminsOnly() {
    FormClient anonymous = formClient();
    for (String page : new String[] {"/", "/login", "/no-such-page"}) {
      assertThat(anonymous.get(page).headers().firstValue("Server-Timing")).as(page).isEmpty();
    }
    users.save("timing-user", "timing-user-password", "USER");
    FormClient user = formClient();
    user.signIn("timing-user", "timing-user-password");
    assertThat(user.get("/").headers().firstValue("Server-Timing")).as("a signed-in user who is no admin").isEmpty();

    FormClient admin = signedInAdmin();
    assertThat(admin.get("/").headers().firstValue("Server-Timing")).hasValueSatisfying(
        v -> assertThat(v).matches("app;dur=\\d+\\.\\d"));
    assertThat(admin.get("/admin").headers().firstValue("Server-Timing")).isPresent();
  }

  @Test
  void theSessionCookieIsSameSiteLaxAndHttpOnly() {
    HttpResponse<String> login = formClient().get("/login");
    String cookie = login.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("JSESSIONID="))
        .findFirst().orElseThrow();
    assertThat(cookie).containsIgnoringCase("SameSite=Lax").containsIgnoringCase("HttpOnly");
  }

  @Test
  void pagesForbidInlineScriptAndForeignSources() {
    String csp = formClient().get("/").headers()
        .firstValue("Content-Security-Policy").orElse("");
    assertThat(csp).contains("script-src 'self'", "object-src 'none'", "frame-ancestors 'none'")
        .doesNotContain("unsafe-eval");
    assertThat(csp.substring(csp.indexOf("script-src"), csp.indexOf(';', csp.indexOf("script-src"))))
        .doesNotContain("unsafe-inline");
  }
}
