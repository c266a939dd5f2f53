package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.FormClient;
import org.perftrack.server.support.IntegrationTest;

/** Issue 12 items 6 and 7: a disabled user's sessions end; password guessing is slowed without telling who exists. */
class SessionsAndSignInThrottleTest extends IntegrationTest {

  @Test
  void disablingAUserEndsTheirOpenSession() {
    String alice = unique("alice");
    FormClient admin = signedInAdmin();
    admin.post("/admin", "/admin/users", "username=" + alice + "&password=correct-horse-battery&role=USER");
    FormClient aliceBrowser = browser();
    assertThat(aliceBrowser.signIn(alice, "correct-horse-battery").headers().firstValue("Location").orElse(""))
        .doesNotContain("error");
    assertThat(aliceBrowser.get("/alerts/subscriptions").statusCode()).as("signed in").isEqualTo(200);

    admin.post("/admin", "/admin/users/disable", "username=" + alice);

    HttpResponse<String> after = aliceBrowser.get("/alerts/subscriptions");
    assertThat(after.statusCode()).as("the session ended").isEqualTo(302);
    assertThat(after.headers().firstValue("Location").orElse("")).endsWith("/login");
  }

  /**
   * Issue 26 item 8: after five wrong passwords from one client the attempts are slowed, not refused: the right
   * password still signs in (after the delay), whoever keeps guessing; an unknown name is answered alike.
   */
  @Test
  void afterFiveWrongPasswordsTheRightOneStillSignsInAfterADelayWhetherOrNotTheUserExists() {
    String bob = unique("bob");
    FormClient admin = signedInAdmin();
    admin.post("/admin", "/admin/users", "username=" + bob + "&password=correct-horse-battery&role=USER");

    for (String name : new String[] {bob, unique("nobody")}) {
      FormClient guesser = browser();
      for (int i = 0; i < SignInThrottle.FREE_FAILURES_PER_PAIR; i++) {
        HttpResponse<String> wrong = guesser.signIn(name, "guess-" + i);
        assertThat(wrong.statusCode()).isEqualTo(302);
        assertThat(wrong.headers().firstValue("Location").orElse("")).contains("/login?error");
      }
      FormClient user = browser();
      HttpResponse<String> right = user.signIn(name, "correct-horse-battery");
      assertThat(right.statusCode()).as(name).isEqualTo(302);
      assertThat(right.headers().firstValue("Location").orElse(""))
          .as(name + ": signed in after the delay (an unknown name: refused alike)")
          .satisfies(l -> assertThat(l.contains("/login?error")).isEqualTo(!name.equals(bob)));
    }
  }

  private FormClient browser() {
    return formClient();
  }
}
