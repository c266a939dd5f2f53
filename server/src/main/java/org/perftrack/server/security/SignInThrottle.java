package org.perftrack.server.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Slows password guessing without locking anyone out. Failed sign-ins are counted per client address and user
 * name together, per address (one client trying many names) and per name (many clients guessing one); past a
 * few free failures each further attempt is held before its password is checked, twice as long after each
 * failure up to {@link #MAX_DELAY}, and then checked: the right password gets in after the delay, whoever else
 * keeps failing. A stranger's failures from another address do not slow a user at all, except past the
 * generous per-name count. It counts the name as typed, whether or not such a user exists, so the answers tell
 * nothing about which names exist. A quiet {@link #FORGET_AFTER} forgets a count; a restart forgets all.
 */
class SignInThrottle {

  static final int FREE_FAILURES_PER_PAIR = 5;
  static final int FREE_FAILURES_PER_ADDRESS = 20;
  static final int FREE_FAILURES_PER_USER = 50;
  static final Duration MAX_DELAY = Duration.ofSeconds(60);
  static final Duration FORGET_AFTER = Duration.ofMinutes(15);
  private static final int MAX_ENTRIES = 100_000;

  private record Failures(int count, Instant last) {}

  private final Map<String, Failures> failures = new ConcurrentHashMap<>();
  private final Clock clock;

  SignInThrottle(Clock clock) {
    this.clock = clock;
  }

  /** How long this attempt is held before its password is checked; zero when it goes ahead at once. */
  Duration delay(String username, String address) {
    Instant now = clock.instant();
    Duration pair = delay(pairKey(username, address), FREE_FAILURES_PER_PAIR, now);
    Duration addr = delay(addressKey(address), FREE_FAILURES_PER_ADDRESS, now);
    Duration user = delay(userKey(username), FREE_FAILURES_PER_USER, now);
    Duration longest = pair.compareTo(addr) >= 0 ? pair : addr;
    return longest.compareTo(user) >= 0 ? longest : user;
  }

  void failed(String username, String address) {
    Instant now = clock.instant();
    if (failures.size() > MAX_ENTRIES) {
      failures.values().removeIf(f -> f.last().plus(FORGET_AFTER).isBefore(now));
    }
    for (String key : new String[] {pairKey(username, address), addressKey(address), userKey(username)}) {
      failures.merge(key, new Failures(1, now), (old, one) ->
          old.last().plus(FORGET_AFTER).isBefore(now) ? one : new Failures(old.count() + 1, now));
    }
  }

  /** A correct password clears the name's counts; the address keeps its own (one account is no alibi). */
  void succeeded(String username, String address) {
    failures.remove(pairKey(username, address));
    failures.remove(userKey(username));
  }

  private Duration delay(String key, int free, Instant now) {
    Failures f = failures.get(key);
    if (f == null || f.count() < free || f.last().plus(FORGET_AFTER).isBefore(now)) {
      return Duration.ZERO;
    }
    return backoff(f.count() - free);
  }

  /** 1 s after the last free failure, then 2 s, 4 s … up to a minute. */
  static Duration backoff(int overFree) {
    return overFree >= 6 ? MAX_DELAY : Duration.ofSeconds(Math.min(MAX_DELAY.toSeconds(), 1L << overFree));
  }

  /** The name as typed, in any case and without surrounding spaces. */
  static String userKey(String username) {
    return "user:" + (username == null ? "" : username.strip().toLowerCase(Locale.ROOT));
  }

  private static String addressKey(String address) {
    return "address:" + address;
  }

  private static String pairKey(String username, String address) {
    return "pair:" + address + " " + userKey(username);
  }
}
