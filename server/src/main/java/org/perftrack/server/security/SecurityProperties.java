package org.perftrack.server.security;

import jakarta.validation.Valid;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Who may do what.
 *
 * @param bootstrapToken {@code PERFTRACK_BOOTSTRAP_TOKEN}: an API token with full rights that exists after start-up
 * @param admin {@code PERFTRACK_ADMIN_PASSWORD}: the admin user's password
 * @param security {@code public-read}: false makes every read need a token or a signed-in user; {@code token-pepper}
 *     ({@code PERFTRACK_SECURITY_TOKEN_PEPPER}): a secret kept outside the database that API tokens are hashed with
 */
@ConfigurationProperties("perftrack")
@Validated
public record SecurityProperties(String bootstrapToken, @Valid Admin admin, @Valid Security security) {

  public SecurityProperties {
    admin = admin == null ? new Admin(null) : admin;
    security = security == null ? new Security(true, null) : security;
  }

  public record Admin(String password) {}

  public record Security(@DefaultValue("true") boolean publicRead, String tokenPepper) {

    public Security {
      if (tokenPepper != null && tokenPepper.length() < 32) {
        throw new IllegalArgumentException("perftrack.security.token-pepper must be at least 32 characters (a random"
            + " secret, e.g. openssl rand -base64 32), got " + tokenPepper.length());
      }
    }
  }
}
