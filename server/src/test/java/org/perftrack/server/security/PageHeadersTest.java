package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.FormClient;
import org.perftrack.server.support.IntegrationTest;

/** Issue 12 item 8 (in part): the session cookie is SameSite=Lax and pages carry a CSP without inline script. */
class PageHeadersTest extends IntegrationTest {

  @Test
  void theSessionCookieIsSameSiteLaxAndHttpOnly() {
    HttpResponse<String> login = new FormClient("http://localhost:" + port).get("/login");
    String cookie = login.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("JSESSIONID="))
        .findFirst().orElseThrow();
    assertThat(cookie).containsIgnoringCase("SameSite=Lax").containsIgnoringCase("HttpOnly");
  }

  @Test
  void pagesForbidInlineScriptAndForeignSources() {
    String csp = new FormClient("http://localhost:" + port).get("/").headers()
        .firstValue("Content-Security-Policy").orElse("");
    assertThat(csp).contains("script-src 'self'", "object-src 'none'", "frame-ancestors 'none'")
        .doesNotContain("unsafe-eval");
    assertThat(csp.substring(csp.indexOf("script-src"), csp.indexOf(';', csp.indexOf("script-src"))))
        .doesNotContain("unsafe-inline");
  }
}
