package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * API tokens are stored as HMAC(perftrack.security.token-pepper, SHA-256): the database, and so a backup, does not let
 * anyone test guesses of a token (the operator-chosen bootstrap token can be guessed). A token stored by an older
 * server as plain SHA-256 is hashed with the pepper at start-up, without its plaintext, and still works.
 */
class TokenPepperTest extends IntegrationTest {

  @Autowired
  ApiTokens tokens;

  @Test
  void storedHashesNeedThePepperAndAnOlderServersTokensStillWorkOnceMoved() {
    assertThat(jdbc.sql("SELECT count(*) FROM api_token WHERE token_hash = ?").param(TokenHash.sha256(TOKEN))
        .query(Long.class).single()).as("no plain SHA-256 of the bootstrap token").isZero();
    assertThat(jdbc.sql("SELECT count(*) FROM api_token WHERE token_hash NOT LIKE 'hmac:%'").query(Long.class)
        .single()).isZero();
    String legacy = "legacy-admin-token-" + System.nanoTime();
    jdbc.sql("INSERT INTO api_token (name, token_hash, created_by, scopes) VALUES ('old', ?, 'older server',"
        + " '{admin}')").param(TokenHash.sha256(legacy)).update();

    int moved = tokens.pepperStoredHashes(); // what a start-up does

    assertThat(moved).isEqualTo(1);
    assertThat(jdbc.sql("SELECT token_hash FROM api_token WHERE name = 'old' AND created_by = 'older server'"
        + " ORDER BY id DESC LIMIT 1").query(String.class).single())
        .isEqualTo(new TokenHash(TOKEN_PEPPER).pepper(TokenHash.sha256(legacy)));
    assertThat(http().getWithToken("/api/v1/audit", legacy).status()).as("the old token, peppered").isEqualTo(200);
    assertThat(http().getWithToken("/api/v1/audit", "not-" + legacy).status()).isEqualTo(401);
    assertThat(tokens.pepperStoredHashes()).as("once").isZero();
  }
}
