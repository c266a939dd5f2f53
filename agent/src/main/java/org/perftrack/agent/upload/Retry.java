package org.perftrack.agent.upload;

import java.time.Duration;
import java.util.Objects;

/**
 * How often, and how far apart, a request to the server is tried: with exponential backoff from {@code firstDelay}
 * up to {@code maxDelay}.
 */
public final class Retry {

  public static final Retry DEFAULT = new Retry(6, Duration.ofSeconds(1), Duration.ofSeconds(30));

  private final int attempts;
  private final Duration firstDelay;
  private final Duration maxDelay;

  /** @param attempts tries in all, the first included */
  public Retry(int attempts, Duration firstDelay, Duration maxDelay) {
    this.attempts = attempts;
    this.firstDelay = firstDelay;
    this.maxDelay = maxDelay;
  }

  public int attempts() {
    return attempts;
  }

  public Duration firstDelay() {
    return firstDelay;
  }

  public Duration maxDelay() {
    return maxDelay;
  }

  /** The wait after one of {@code delay}: twice as long, at most {@link #maxDelay()}. */
  Duration next(Duration delay) {
    Duration doubled = delay.multipliedBy(2);
    return doubled.compareTo(maxDelay) <= 0 ? doubled : maxDelay;
  }

  @Override
  public boolean equals(Object other) {
    if (this == other) {
      return true;
    }
    if (!(other instanceof Retry)) {
      return false;
    }
    Retry o = (Retry) other;
    return attempts == o.attempts && Objects.equals(firstDelay, o.firstDelay) && Objects.equals(maxDelay, o.maxDelay);
  }

  @Override
  public int hashCode() {
    return Objects.hash(attempts, firstDelay, maxDelay);
  }

  @Override
  public String toString() {
    return "Retry[attempts=" + attempts + ", firstDelay=" + firstDelay + ", maxDelay=" + maxDelay + "]";
  }
}
