package org.perftrack.server.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows password guessing: after a few failed sign-ins for one user name, or many from one address,
 * each further attempt must wait twice as long as the one before (up to {@link #MAX_WAIT}), and is
 * refused with 429 before the password is checked. It counts the name as typed, whether or not such a
 * user exists, so the answers tell nothing about which names exist. Kept in memory: a restart forgets.
 */
class SignInThrottle {

  static final int FREE_FAILURES_PER_USER = 5;
  static final int FREE_FAILURES_PER_ADDRESS = 20;
  static final Duration MAX_WAIT = Duration.ofMinutes(15);
  private static final int MAX_ENTRIES = 100_000;

  private record Failures(int count, Instant last) {}

  private final Map<String, Failures> failures = new ConcurrentHashMap<>();
  private final Clock clock;

  SignInThrottle(Clock clock) {
    this.clock = clock;
  }

  /** How long this attempt must still wait; empty when it may go ahead. */
  Optional<Duration> wait(String username, String address) {
    Instant now = clock.instant();
    Duration user = remaining(userKey(username), FREE_FAILURES_PER_USER, now);
    Duration addr = remaining(addressKey(address), FREE_FAILURES_PER_ADDRESS, now);
    Duration longer = user.compareTo(addr) >= 0 ? user : addr;
    return longer.isZero() ? Optional.empty() : Optional.of(longer);
  }

  void failed(String username, String address) {
    Instant now = clock.instant();
    if (failures.size() > MAX_ENTRIES) {
      failures.values().removeIf(f -> f.last().plus(MAX_WAIT).isBefore(now));
    }
    for (String key : new String[] {userKey(username), addressKey(address)}) {
      failures.merge(key, new Failures(1, now), (old, one) ->
          old.last().plus(MAX_WAIT).isBefore(now) ? one : new Failures(old.count() + 1, now));
    }
  }

  /** A correct password clears the user's count; the address keeps its own (one account is no alibi). */
  void succeeded(String username) {
    failures.remove(userKey(username));
  }

  private Duration remaining(String key, int free, Instant now) {
    Failures f = failures.get(key);
    if (f == null || f.count() < free) {
      return Duration.ZERO;
    }
    Duration wait = backoff(f.count() - free);
    Duration left = Duration.between(now, f.last().plus(wait));
    return left.isNegative() ? Duration.ZERO : left;
  }

  /** 1 s after the last free failure, then 2 s, 4 s … up to 15 min. */
  static Duration backoff(int overFree) {
    return overFree >= 10 ? MAX_WAIT : Duration.ofSeconds(Math.min(MAX_WAIT.toSeconds(), 1L << overFree));
  }

  private static String userKey(String username) {
    return "user:" + (username == null ? "" : username.strip().toLowerCase(Locale.ROOT));
  }

  private static String addressKey(String address) {
    return "address:" + address;
  }
}
