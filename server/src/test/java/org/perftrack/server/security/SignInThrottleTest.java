package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class SignInThrottleTest {

  private Instant now = Instant.parse("2026-01-01T00:00:00Z");
  private final SignInThrottle throttle = new SignInThrottle(new Clock() {
    @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
    @Override public Clock withZone(java.time.ZoneId zone) { return this; }
    @Override public Instant instant() { return now; }
  });

  @Test
  void theWaitDoublesAfterTheFreeFailuresAndIsCapped() {
    for (int i = 0; i < SignInThrottle.FREE_FAILURES_PER_USER; i++) {
      assertThat(throttle.wait("Alice", "10.0.0.1")).isEmpty();
      throttle.failed("alice", "10.0.0.1");
    }
    assertThat(throttle.wait("ALICE ", "10.0.0.2")).as("the name as typed, any case, any address").contains(Duration.ofSeconds(1));
    now = now.plusSeconds(1);
    assertThat(throttle.wait("alice", "10.0.0.2")).isEmpty();
    throttle.failed("alice", "10.0.0.2");
    assertThat(throttle.wait("alice", "10.0.0.3")).contains(Duration.ofSeconds(2));
    assertThat(SignInThrottle.backoff(30)).isEqualTo(SignInThrottle.MAX_WAIT);
  }

  @Test
  void oneAddressTryingManyNamesIsSlowedToo() {
    for (int i = 0; i < SignInThrottle.FREE_FAILURES_PER_ADDRESS; i++) {
      throttle.failed("user" + i, "10.0.0.9");
    }
    assertThat(throttle.wait("someone-new", "10.0.0.9")).isPresent();
    assertThat(throttle.wait("someone-new", "10.0.0.10")).isEmpty();
  }

  @Test
  void aCorrectPasswordClearsTheNameButNotTheAddress() {
    for (int i = 0; i < SignInThrottle.FREE_FAILURES_PER_ADDRESS; i++) {
      throttle.failed("mallory", "10.0.0.5");
    }
    throttle.succeeded("mallory");
    assertThat(throttle.wait("mallory", "10.0.0.6")).isEmpty();
    assertThat(throttle.wait("mallory", "10.0.0.5")).isPresent();
  }
}
