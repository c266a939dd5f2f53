package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URLDecoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.FormClient;
import org.perftrack.server.support.IntegrationTest;

/**
 * "Sign in" followed from a page returns to that page once signed in, also after a wrong password; a {@code next}
 * that is not a path of this site (another host, a scheme, {@code //}, a backslash) is never followed.
 */
class SignInReturnTest extends IntegrationTest {

  private static final Pattern SIGN_IN = Pattern.compile("<a href=\"(/login[^\"]*)\">Sign in</a>");
  private static final Pattern NEXT = Pattern.compile("name=\"next\" value=\"([^\"]*)\"");

  @Test
  void signingInFromAPageReturnsToThatPageEvenAfterAWrongPassword() {
    FormClient person = formClient();
    String page = "/regressions?status=all&product=cygwin";
    String login = link(person.get(page).body());
    assertThat(login).startsWith("/login?next=");
    assertThat(URLDecoder.decode(login.substring("/login?next=".length()), StandardCharsets.UTF_8)).isEqualTo(page);

    HttpResponse<String> wrong = person.post(login, "/login", "username=admin&password=wrong&next="
        + FormClient.enc(next(person.get(login).body())));
    String again = location(wrong);
    assertThat(again).startsWith("/login?error&next=");
    HttpResponse<String> right = person.post(again, "/login", "username=admin&password="
        + FormClient.enc(ADMIN_PASSWORD) + "&next=" + FormClient.enc(next(person.get(again).body())));
    assertThat(location(right)).as("back where Sign in was asked from").isEqualTo(page);
    assertThat(person.get(page).body()).contains("Sign out");
  }

  @Test
  void aNextThatIsNotALocalPathIsNeitherOfferedNorFollowed() {
    for (String elsewhere : List.of("//evil.example/x", "https://evil.example/", "/\\evil.example", "evil.example",
        "javascript:alert(1)")) {
      FormClient person = formClient();
      assertThat(person.get("/login?next=" + FormClient.enc(elsewhere)).body()).as(elsewhere)
          .doesNotContain("name=\"next\"");
      HttpResponse<String> signedIn = person.post("/login", "/login", "username=admin&password="
          + FormClient.enc(ADMIN_PASSWORD) + "&next=" + FormClient.enc(elsewhere));
      assertThat(location(signedIn)).as(elsewhere).isEqualTo("/");
    }
  }

  private static String link(String html) {
    Matcher m = SIGN_IN.matcher(html);
    assertThat(m.find()).as("a Sign in link").isTrue();
    return m.group(1).replace("&amp;", "&");
  }

  private static String next(String html) {
    Matcher m = NEXT.matcher(html);
    assertThat(m.find()).as("the form carries where to return").isTrue();
    return org.springframework.web.util.HtmlUtils.htmlUnescape(m.group(1));
  }

  private static String location(HttpResponse<String> r) {
    assertThat(r.statusCode()).isEqualTo(302);
    String at = r.headers().firstValue("Location").orElseThrow();
    return at.replaceFirst("^http://localhost:\\d+", "");
  }
}
