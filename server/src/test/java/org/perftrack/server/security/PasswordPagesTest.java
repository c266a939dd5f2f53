package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.FormClient;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Passwords as people change them: a user changes their own on the account page (the current one first, CSRF on the
 * form), an admin resets another's on the admin page, and {@code PERFTRACK_ADMIN_PASSWORD} sets a password only
 * when its value is not the one it set last, so a service file that keeps it does not undo a change on the page.
 */
class PasswordPagesTest extends IntegrationTest {

  @Autowired
  Users users;

  @Autowired
  Bootstrap bootstrap;

  @Test
  void aUserChangesTheirOwnPasswordAfterGivingTheCurrentOne() {
    String user = newUser("first-password-1");
    FormClient person = signedIn(user, "first-password-1");
    assertThat(person.get("/account").body()).contains("Change your password", "Signed in as <b>" + user + "</b>");
    assertThat(person.get("/account").body().replaceAll("<[^>]+>", "").replaceAll("\\s+", " "))
        .as("a user who is not 'admin' is not sent to PERFTRACK_ADMIN_PASSWORD, which sets admin's password only")
        .contains("Forgot your password? An admin resets it on the admin page; the user admin alone can also start"
            + " the server with a new PERFTRACK_ADMIN_PASSWORD.");

    HttpResponse<String> wrong = person.post("/account", "/account/password",
        "current=not-my-password&password=second-password-2&repeat=second-password-2");
    assertThat(wrong.headers().firstValue("Location").orElse("")).endsWith("/account");
    assertThat(person.get("/account").body())
        .contains("Current password: that is not your password now; nothing was changed.");
    person.post("/account", "/account/password", "current=first-password-1&password=second-password-2&repeat=other-password-3");
    assertThat(person.get("/account").body()).contains("Repeat the new password: the two entries differ.");
    person.post("/account", "/account/password", "current=first-password-1&password=short&repeat=short");
    assertThat(person.get("/account").body()).contains("New password: at least 10 characters.");
    assertThat(signsIn(user, "first-password-1")).as("nothing changed yet").isTrue();

    person.post("/account", "/account/password", "current=first-password-1&password=second-password-2&repeat=second-password-2");
    assertThat(person.get("/account").body()).contains("Your password is changed");
    assertThat(signsIn(user, "first-password-1")).isFalse();
    assertThat(signsIn(user, "second-password-2")).isTrue();
    assertThat(jdbc.sql("SELECT count(*) FROM audit_event WHERE actor = ? AND action = 'changed password'").param(user)
        .query(Long.class).single()).isEqualTo(1);
  }

  @Test
  void theAccountPageNeedsASignInAndItsFormACsrfToken() {
    FormClient anonymous = formClient();
    HttpResponse<String> page = anonymous.get("/account");
    assertThat(page.statusCode()).isEqualTo(302);
    assertThat(page.headers().firstValue("Location").orElse("")).endsWith("/login");

    String user = newUser("csrf-password-1");
    FormClient person = signedIn(user, "csrf-password-1");
    HttpResponse<String> forged = person.postWithoutCsrf("/account/password",
        "current=csrf-password-1&password=forged-password&repeat=forged-password");
    assertThat(forged.statusCode()).isEqualTo(403);
    assertThat(signsIn(user, "csrf-password-1")).isTrue();
  }

  @Test
  void anAdminResetsAnotherUsersPasswordAndAUserCannot() {
    String user = newUser("forgotten-password");
    FormClient admin = signedInAdmin();
    admin.post("/admin", "/admin/users/password", "username=" + user + "&password=short");
    assertThat(admin.get("/admin").body()).contains("Password: at least 10 characters.");
    admin.post("/admin", "/admin/users/password", "username=" + user + "&password=given-by-admin");
    assertThat(admin.get("/admin").body()).contains("Password of " + user + " reset");
    assertThat(signsIn(user, "given-by-admin")).isTrue();
    assertThat(signsIn(user, "forgotten-password")).isFalse();

    FormClient person = signedIn(user, "given-by-admin");
    String other = newUser("other-password-1");
    HttpResponse<String> refused = person.post("/account", "/admin/users/password",
        "username=" + other + "&password=taken-over-password");
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(signsIn(other, "other-password-1")).isTrue();
  }

  @Test
  void theEnvironmentSetsAPasswordOnlyWhenItsValueIsNotTheOneItSetLast() {
    String user = Fixtures.unique("env");
    assertThat(users.setFromEnvironment(user, "from-the-environment", "USER")).isTrue();
    FormClient person = signedIn(user, "from-the-environment");
    person.post("/account", "/account/password",
        "current=from-the-environment&password=changed-on-the-page&repeat=changed-on-the-page");

    assertThat(users.setFromEnvironment(user, "from-the-environment", "USER")).as("the same value: a restart").isFalse();
    assertThat(signsIn(user, "changed-on-the-page")).isTrue();

    assertThat(users.setFromEnvironment(user, "a-new-value-to-recover", "USER")).as("a new value: recovery").isTrue();
    assertThat(signsIn(user, "a-new-value-to-recover")).isTrue();
    assertThat(signsIn(user, "changed-on-the-page")).isFalse();
  }

  @Test
  void aRestartWithTheSameAdminPasswordLeavesTheAdminsPasswordAsItIs() {
    String before = adminHash();
    bootstrap.afterSingletonsInstantiated();
    assertThat(adminHash()).isEqualTo(before);
    assertThat(signsIn("admin", ADMIN_PASSWORD)).isTrue();
  }

  private String adminHash() {
    return jdbc.sql("SELECT password_hash FROM app_user WHERE username = 'admin'").query(String.class).single();
  }

  private String newUser(String password) {
    String user = Fixtures.unique("pw");
    FormClient admin = signedInAdmin();
    admin.post("/admin", "/admin/users", "username=" + user + "&password=" + FormClient.enc(password) + "&role=USER");
    assertThat(users.exists(user)).isTrue();
    return user;
  }

  private FormClient signedIn(String user, String password) {
    return formClient().signedIn(user, password);
  }

  private boolean signsIn(String user, String password) {
    return !formClient().signIn(user, password).headers().firstValue("Location").orElse("error")
        .contains("error");
  }
}
