package org.perftrack.server.security;

import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.core.userdetails.UsernameNotFoundException;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.stereotype.Service;

/** People who sign in to triage regressions and manage tokens; passwords stored with the delegating (bcrypt) encoder. */
@Service
public class Users implements UserDetailsService {

  /** A user as listed on the admin page. */
  public record UserInfo(long id, String username, String role, Instant createdAt, Instant disabledAt) {}

  private final JdbcClient jdbc;
  private final PasswordEncoder encoder;

  Users(JdbcClient jdbc, PasswordEncoder encoder) {
    this.jdbc = jdbc;
    this.encoder = encoder;
  }

  record Row(String username, String passwordHash, String role, Instant disabledAt) {}

  @Override
  public UserDetails loadUserByUsername(String username) {
    Row row = jdbc.sql("SELECT username, password_hash, role, disabled_at FROM app_user WHERE username = ?")
        .param(username).query(Row.class).optional()
        .orElseThrow(() -> new UsernameNotFoundException(username));
    return User.withUsername(row.username()).password(row.passwordHash())
        .authorities(AuthorityUtils.createAuthorityList("ROLE_" + row.role()))
        .disabled(row.disabledAt() != null).build();
  }

  static final String UPSERT = """
      INSERT INTO app_user (username, password_hash, role) VALUES (?, ?, ?)
      ON CONFLICT (username) DO UPDATE SET password_hash = excluded.password_hash, role = excluded.role,
        disabled_at = NULL""";

  /** Creates the user, or sets the password and role of an existing one. */
  public void save(String username, String password, String role) {
    jdbc.sql(UPSERT).params(username, encoder.encode(password), role).update();
  }

  /** The rule every password set on a page follows: a message naming the field, or empty when it is fine. */
  public static java.util.Optional<String> passwordProblem(String password) {
    if (password.length() < MIN_PASSWORD) {
      return java.util.Optional.of("Password: at least " + MIN_PASSWORD + " characters.");
    }
    if (password.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_PASSWORD_BYTES) {
      return java.util.Optional.of("Password: at most " + MAX_PASSWORD_BYTES + " bytes (bcrypt reads no further).");
    }
    return java.util.Optional.empty();
  }

  public static final int MIN_PASSWORD = 10;
  private static final int MAX_PASSWORD_BYTES = 72;

  static final String ENV_HASH = "SELECT coalesce(env_password_hash, '') FROM app_user WHERE username = ?";

  static final String SET_FROM_ENV = """
      INSERT INTO app_user (username, password_hash, role, env_password_hash) VALUES (?, ?, ?, ?)
      ON CONFLICT (username) DO UPDATE SET password_hash = excluded.password_hash, role = excluded.role,
        env_password_hash = excluded.env_password_hash, disabled_at = NULL""";

  /**
   * Sets the password given in the environment ({@code PERFTRACK_ADMIN_PASSWORD}), unless it is the value the
   * environment set last: a service file that keeps the variable does not undo a password changed on the page,
   * and a new value is the way back in. True when the password was set.
   */
  boolean setFromEnvironment(String username, String password, String role) {
    String last = jdbc.sql(ENV_HASH).param(username).query(String.class).optional().orElse("");
    if (!last.isEmpty() && encoder.matches(password, last)) {
      return false;
    }
    String hash = encoder.encode(password);
    jdbc.sql(SET_FROM_ENV).params(username, hash, role, hash).update();
    return true;
  }

  /** What became of a change of one's own password. */
  public enum Change { CHANGED, WRONG_CURRENT, NO_SUCH_USER }

  static final String HASH = "SELECT password_hash FROM app_user WHERE username = ? AND disabled_at IS NULL";

  /** Changes a user's own password when {@code current} is their password now. */
  public Change changeOwn(String username, String current, String password) {
    var hash = jdbc.sql(HASH).param(username).query(String.class).optional();
    if (hash.isEmpty()) {
      return Change.NO_SUCH_USER;
    }
    if (!encoder.matches(current, hash.get())) {
      return Change.WRONG_CURRENT;
    }
    reset(username, password);
    return Change.CHANGED;
  }

  /** Sets an existing user's password (an admin's reset, or one's own change); false when there is no such user. */
  public boolean reset(String username, String password) {
    return jdbc.sql("UPDATE app_user SET password_hash = ? WHERE username = ?").params(encoder.encode(password), username)
        .update() == 1;
  }

  public boolean exists(String username) {
    return jdbc.sql("SELECT count(*) FROM app_user WHERE username = ?").param(username).query(Long.class).single() > 0;
  }

  public List<UserInfo> list() {
    return jdbc.sql("SELECT id, username, role, created_at, disabled_at FROM app_user ORDER BY username")
        .query(UserInfo.class).list();
  }

  /** False for a disabled or deleted user: their open sessions end at their next request. */
  boolean isActive(String username) {
    return jdbc.sql("SELECT count(*) FROM app_user WHERE username = ? AND disabled_at IS NULL").param(username)
        .query(Long.class).single() > 0;
  }

  public boolean disable(String username) {
    return jdbc.sql("UPDATE app_user SET disabled_at = now() WHERE username = ? AND username <> 'admin'")
        .param(username).update() == 1;
  }
}
