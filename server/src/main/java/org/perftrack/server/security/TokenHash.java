package org.perftrack.server.security;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What is stored of an API token: its SHA-256, and with {@code perftrack.security.token-pepper} set, {@code hmac:}
 * and HMAC-SHA256(pepper, that SHA-256 in hex). A backup or a read of the database then does not let anyone test
 * guesses of a token (an operator-chosen bootstrap token can be guessed) without the pepper, which lives outside the
 * database. Hashing the SHA-256 rather than the token lets a stored plain hash be peppered without the token.
 */
final class TokenHash {

  static final String PEPPERED = "hmac:";

  private final SecretKeySpec pepper;

  TokenHash(String pepper) {
    this.pepper = pepper == null ? null : new SecretKeySpec(pepper.getBytes(StandardCharsets.UTF_8), "HmacSHA256");
  }

  boolean peppered() {
    return pepper != null;
  }

  String of(String token) {
    String sha = sha256(token);
    return pepper == null ? sha : pepper(sha);
  }

  /** The peppered form of a stored plain hash. */
  String pepper(String sha256Hex) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(pepper);
      return PEPPERED + HexFormat.of().formatHex(mac.doFinal(sha256Hex.getBytes(StandardCharsets.US_ASCII)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  static String sha256(String token) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
