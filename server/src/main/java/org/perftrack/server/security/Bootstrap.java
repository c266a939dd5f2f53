package org.perftrack.server.security;

import java.security.SecureRandom;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Makes sure someone can get in after the first start: the bootstrap API token and the admin user.
 * What it generates is printed once and stored only hashed. It runs once every bean is made (the schema is
 * migrated by then) and before the web server starts: an agent's upload that arrives in the first moment, with
 * the token given in {@code PERFTRACK_BOOTSTRAP_TOKEN}, finds the token stored (as an application runner it ran
 * after the port opened, and such uploads were refused with 401).
 */
@Component
class Bootstrap implements SmartInitializingSingleton {

  private static final Logger log = LoggerFactory.getLogger(Bootstrap.class);

  private final SecurityProperties props;
  private final ApiTokens tokens;
  private final Users users;
  private final TransactionTemplate tx;

  Bootstrap(SecurityProperties props, ApiTokens tokens, Users users, TransactionTemplate tx) {
    this.props = props;
    this.tokens = tokens;
    this.users = users;
    this.tx = tx;
  }

  @Override
  public void afterSingletonsInstantiated() {
    tx.executeWithoutResult(status -> {
      pepper();
      bootstrapToken();
      adminUser();
    });
  }

  private void pepper() {
    if (!tokens.peppered()) {
      log.warn("perftrack.security.token-pepper (PERFTRACK_SECURITY_TOKEN_PEPPER) is not set: API tokens are stored as"
          + " plain SHA-256, and a backup lets anyone test guesses of a chosen token; set it to a random secret of 32"
          + " characters or more, kept outside the database");
      return;
    }
    int moved = tokens.pepperStoredHashes();
    if (moved > 0) {
      log.info("{} stored API token hashes are now hashed with perftrack.security.token-pepper; keep it: without the"
          + " same pepper no token is accepted", moved);
    }
  }

  private void bootstrapToken() {
    String configured = props.bootstrapToken();
    if (configured != null && !configured.isBlank()) {
      tokens.register("bootstrap", configured, "PERFTRACK_BOOTSTRAP_TOKEN", Scope.BOOTSTRAP);
      log.info("API token from PERFTRACK_BOOTSTRAP_TOKEN is known (scopes upload, read; revoked stays revoked)");
    } else if (!tokens.any()) {
      ApiTokens.NewToken token = tokens.create("bootstrap", "first start", Scope.BOOTSTRAP);
      log.warn("""

          ================================================================
           perftrack generated an API token for uploads and reads (shown only once):

             {}

           Use it as: Authorization: Bearer <token>, or PERFTRACK_TOKEN for the agent.
           Set PERFTRACK_BOOTSTRAP_TOKEN to choose your own.
          ================================================================""", token.token());
    }
  }

  private void adminUser() {
    String configured = props.admin().password();
    if (configured != null && !configured.isBlank()) {
      if (users.setFromEnvironment("admin", configured, "ADMIN")) {
        log.info("The password of 'admin' is the one in PERFTRACK_ADMIN_PASSWORD (a value it had not set before)");
      }
    } else if (!users.exists("admin")) {
      byte[] bytes = new byte[12];
      new SecureRandom().nextBytes(bytes);
      String password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      users.save("admin", password, "ADMIN");
      log.warn("""

          ================================================================
           perftrack created the user 'admin' with the password (shown only once):

             {}

           Set PERFTRACK_ADMIN_PASSWORD to choose your own.
          ================================================================""", password);
    }
  }
}
