package org.perftrack.server.dashboard;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Keeps page views that are costly to build (the product overview, version comparisons over all
 * machines) until the data under them changes. Their data only changes when a run arrives or a
 * benchmark setting changes (it moves comparison verdicts), so the newest {@code run.received_at}
 * and {@code benchmark_setting.updated_at} (one index probe and a tiny table) stamp every entry. A run
 * whose transaction started before the newest one but committed after it would not move the stamp,
 * so entries also expire after {@link #MAX_AGE}.
 */
@Component
public class DataCache {

  static final Duration MAX_AGE = Duration.ofSeconds(60);
  private static final int MAX_ENTRIES = 500;

  static final String STAMP = """
      SELECT greatest((SELECT max(received_at) FROM run), (SELECT max(updated_at) FROM benchmark_setting),
                      (SELECT max(at) FROM audit_event))""";

  private record Entry(Instant stamp, Instant madeAt, Object value) {}

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final JdbcClient jdbc;
  private final Clock clock = Clock.systemUTC();

  DataCache(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** The value for {@code key} (which must name everything the value depends on besides the data). */
  @SuppressWarnings("unchecked")
  public <T> T get(String key, Supplier<T> make) {
    Instant stamp = jdbc.sql(STAMP).query(Instant.class).optional().orElse(Instant.EPOCH);
    Instant now = clock.instant();
    Entry entry = entries.get(key);
    if (entry != null && entry.stamp().equals(stamp) && entry.madeAt().plus(MAX_AGE).isAfter(now)) {
      return (T) entry.value();
    }
    T value = make.get();
    if (entries.size() >= MAX_ENTRIES) {
      entries.clear();
    }
    entries.put(key, new Entry(stamp, now, value));
    return value;
  }
}
