package org.perftrack.server.security;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * API tokens. Only a hash of a token is stored ({@link TokenHash}); the token itself is shown once, when made.
 * Tokens are 256 random bits, so a fast hash cannot be brute-forced and lookups stay one index probe.
 */
@Service
public class ApiTokens {

  /** A token as listed on the admin page (never the secret). */
  public record TokenInfo(long id, String name, String scopes, String createdBy, Instant createdAt, Instant lastUsedAt,
      Instant revokedAt) {}

  /** A token just made: {@code token} is the only copy of the secret. */
  public record NewToken(long id, String name, Set<Scope> scopes, String token) {}

  private static final SecureRandom RANDOM = new SecureRandom();

  private final JdbcClient jdbc;
  private final TokenHash hash;

  ApiTokens(JdbcClient jdbc, SecurityProperties props) {
    this.jdbc = jdbc;
    this.hash = new TokenHash(props.security().tokenPepper());
  }

  static final String UNPEPPERED = "SELECT id, token_hash FROM api_token WHERE token_hash NOT LIKE '"
      + TokenHash.PEPPERED + "%' FOR UPDATE";
  static final String PEPPER = "UPDATE api_token SET token_hash = ? WHERE id = ?";

  /**
   * With a pepper set, every token hashed before it (plain SHA-256) is hashed again with it: HMAC(pepper, stored
   * hash), which needs no token. Runs at start-up, before the first request; returns how many it moved.
   */
  int pepperStoredHashes() {
    if (!hash.peppered()) {
      return 0;
    }
    List<Object[]> rows = jdbc.sql(UNPEPPERED).query((rs, n) -> new Object[] {rs.getLong(1), rs.getString(2)}).list();
    for (Object[] row : rows) {
      jdbc.sql(PEPPER).params(hash.pepper((String) row[1]), row[0]).update();
    }
    return rows.size();
  }

  boolean peppered() {
    return hash.peppered();
  }

  /**
   * A token that exists already (the bootstrap token at every start) keeps its row as it is: a revoked
   * one stays revoked, and its scopes stay what they were.
   */
  static final String INSERT = """
      INSERT INTO api_token (name, token_hash, created_by, scopes) VALUES (?, ?, ?, ?)
      ON CONFLICT (token_hash) DO UPDATE SET name = api_token.name
      RETURNING id""";

  public NewToken create(String name, String createdBy, Set<Scope> scopes) {
    if (scopes.isEmpty()) {
      throw new IllegalArgumentException("a token needs at least one scope");
    }
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    String token = "pt_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    return new NewToken(register(name, token, createdBy, scopes), name, Set.copyOf(scopes), token);
  }

  /** Stores a token whose value the operator chose (the bootstrap token); idempotent. */
  public long register(String name, String token, String createdBy, Set<Scope> scopes) {
    return jdbc.sql(INSERT).params(name, hash.of(token), createdBy, Scope.wire(scopes)).query(Long.class).single();
  }

  /** A valid token: its name and what it may do. */
  record Valid(long id, String name, Set<Scope> scopes, Instant lastUsedAt) {}

  static final String AUTHENTICATE = """
      SELECT id, name, scopes, last_used_at FROM api_token WHERE token_hash = ? AND revoked_at IS NULL""";
  static final String TOUCH = "UPDATE api_token SET last_used_at = now() WHERE id = ?";

  /**
   * How long a token checked against the database is trusted without asking again: a revocation on this
   * server takes effect at once (the cache is cleared), one on another server within this time.
   */
  static final long CACHE_NANOS = 10_000_000_000L;
  private static final int CACHE_LIMIT = 10_000;

  private record Cached(Valid valid, long checkedAt) {}

  private final java.util.concurrent.atomic.AtomicLong revocations = new java.util.concurrent.atomic.AtomicLong();

  private final java.util.concurrent.ConcurrentHashMap<String, Cached> cache = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The token's name when it is valid and not revoked: from a short-lived cache of valid tokens (so an
   * upload does not start with a round trip of its own), else one query. {@code last_used_at} is written at
   * most once a minute, so that a busy CI token does not turn every upload into two writes on one row.
   */
  Optional<Valid> authenticate(String token) {
    String hash = this.hash.of(token);
    long now = System.nanoTime();
    long generation = revocations.get();
    Cached cached = cache.get(hash);
    if (cached != null && now - cached.checkedAt() < CACHE_NANOS) {
      return Optional.of(cached.valid());
    }
    Optional<Valid> valid = jdbc.sql(AUTHENTICATE).param(hash).query((rs, n) -> new Valid(rs.getLong("id"),
        rs.getString("name"), Scope.parseAll(List.of((String[]) rs.getArray("scopes").getArray())),
        rs.getObject("last_used_at", java.time.OffsetDateTime.class) == null ? null
            : rs.getObject("last_used_at", java.time.OffsetDateTime.class).toInstant())).optional();
    valid.filter(v -> v.lastUsedAt() == null || v.lastUsedAt().isBefore(Instant.now().minusSeconds(60)))
        .ifPresent(v -> jdbc.sql(TOUCH).param(v.id()).update());
    if (valid.isPresent() && generation == revocations.get()) {
      if (cache.size() >= CACHE_LIMIT) {
        cache.clear();
      }
      Valid v = valid.get();
      // the touch above (or one less than a minute ago) stands for the uses until the next check
      cache.put(hash, new Cached(new Valid(v.id(), v.name(), v.scopes(), Instant.now()), now));
    } else {
      cache.remove(hash);
    }
    return valid;
  }

  static final String LIST = """
      SELECT id, name, array_to_string(scopes, ', ') AS scopes, created_by, created_at, last_used_at, revoked_at
      FROM api_token ORDER BY id""";

  public List<TokenInfo> list() {
    return jdbc.sql(LIST).query(TokenInfo.class).list();
  }

  public boolean revoke(long id) {
    boolean done = jdbc.sql("UPDATE api_token SET revoked_at = now() WHERE id = ? AND revoked_at IS NULL").param(id)
        .update() == 1;
    revocations.incrementAndGet(); // a check that read the row before this update does not cache it
    cache.clear();
    return done;
  }

  boolean any() {
    return jdbc.sql("SELECT count(*) FROM api_token").query(Long.class).single() > 0;
  }
}
