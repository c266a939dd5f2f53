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
