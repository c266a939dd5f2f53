package org.perftrack.agent.suite;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one target produced in a session: complete sample lists per benchmark, and why the others
 * have none. Filled by {@link SuiteSession} on one thread, read after it returns.
 */
public final class Measurements {

  private final PreparedTarget target;
  private final Map<Benchmark, List<Sample>> samples = new LinkedHashMap<>();
  private final Map<String, String> failures = new LinkedHashMap<>();
  private final Instant startedAt;
  private Instant finishedAt;
  private boolean interrupted;

  Measurements(PreparedTarget target, Instant startedAt) {
    this.target = target;
    this.startedAt = startedAt;
  }

  void complete(Benchmark benchmark, List<Sample> list) {
    samples.put(benchmark, Collections.unmodifiableList(new ArrayList<>(list)));
  }

  void fail(Benchmark benchmark, String message) {
    failures.putIfAbsent(benchmark.name(), message);
  }

  void finish(Instant at, boolean wasInterrupted) {
    finishedAt = at;
    interrupted = wasInterrupted;
  }

  public PreparedTarget target() {
    return target;
  }

  /** Benchmark → its samples, in suite order; only benchmarks measured to the end. */
  public Map<Benchmark, List<Sample>> samples() {
    return Collections.unmodifiableMap(samples);
  }

  /** Benchmark name → why it has no samples. */
  public Map<String, String> failures() {
    return Collections.unmodifiableMap(failures);
  }

  public Instant startedAt() {
    return startedAt;
  }

  public Instant finishedAt() {
    return finishedAt;
  }

  public boolean interrupted() {
    return interrupted;
  }
}
