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
  void theDelayDoublesAfterTheFreeFailuresOfOneClientAndNameAndIsCapped() {
    for (int i = 0; i < SignInThrottle.FREE_FAILURES_PER_PAIR; i++) {
      assertThat(throttle.delay("Alice", "10.0.0.1")).isZero();
      throttle.failed("alice", "10.0.0.1");
    }
    assertThat(throttle.delay("ALICE ", "10.0.0.1")).as("the name as typed, any case").isEqualTo(Duration.ofSeconds(1));
    throttle.failed("alice", "10.0.0.1");
    assertThat(throttle.delay("alice", "10.0.0.1")).isEqualTo(Duration.ofSeconds(2));
    assertThat(SignInThrottle.backoff(30)).isEqualTo(SignInThrottle.MAX_DELAY);
    now = now.plus(SignInThrottle.FORGET_AFTER).plusSeconds(1);
    assertThat(throttle.delay("alice", "10.0.0.1")).as("forgotten after a quiet while").isZero();
  }

  @Test
  void aStrangersFailuresFromAnotherAddressDoNotSlowTheUser() {
    for (int i = 0; i < SignInThrottle.FREE_FAILURES_PER_PAIR * 4; i++) {
      throttle.failed("admin", "203.0.113.7");
    }
    assertThat(throttle.delay("admin", "203.0.113.7")).isPositive();
    assertThat(throttle.delay("admin", "10.0.0.2")).isZero();
  }

  @Test
  void manyClientsGuessingOneNameSlowItEverywhere() {
    for (int i = 0; i < SignInThrottle.FREE_FAILURES_PER_USER; i++) {
      throttle.failed("admin", "198.51.100." + i);
    }
    assertThat(throttle.delay("admin", "10.0.0.2")).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void oneAddressTryingManyNamesIsSlowedToo() {
    for (int i = 0; i < SignInThrottle.FREE_FAILURES_PER_ADDRESS; i++) {
      throttle.failed("user" + i, "10.0.0.9");
    }
    assertThat(throttle.delay("someone-new", "10.0.0.9")).isPositive();
    assertThat(throttle.delay("someone-new", "10.0.0.10")).isZero();
  }

  @Test
  void aCorrectPasswordClearsTheNameButNotTheAddress() {
    for (int i = 0; i < SignInThrottle.FREE_FAILURES_PER_ADDRESS; i++) {
      throttle.failed("mallory", "10.0.0.5");
    }
    throttle.succeeded("mallory", "10.0.0.5");
    assertThat(throttle.delay("mallory", "10.0.0.6")).isZero();
    assertThat(throttle.delay("mallory", "10.0.0.5")).isPositive();
  }
}
