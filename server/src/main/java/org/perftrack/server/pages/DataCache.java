package org.perftrack.server.pages;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Keeps page views that are costly to build (the product overview, version comparisons over all machines, the home
 * page's lists) until the data under them changes. The data changes when a run arrives (or is purged), when a
 * benchmark setting changes (it moves comparison verdicts), when a person changes something (triage, exclusion,
 * deletion and restore, renaming and merging: each writes the audit log) and when detection changes its mind about a
 * regression (each change is a row of its history, also when an import judges its runs after storing them); so the
 * newest {@code run.received_at}, {@code benchmark_setting.updated_at}, {@code audit_event.at} and
 * {@code regression_event.id} (index probes and a tiny table) stamp every entry. A change whose transaction started
 * before the newest one but committed after it would not move the stamp, so entries also expire after
 * {@link #MAX_AGE}.
 */
@Component
public class DataCache {

  static final Duration MAX_AGE = Duration.ofSeconds(60);
  private static final int MAX_ENTRIES = 500;

  static final String STAMP = """
      SELECT concat_ws(' ', (SELECT max(received_at) FROM run), (SELECT max(updated_at) FROM benchmark_setting),
                            (SELECT max(at) FROM audit_event), (SELECT max(id) FROM regression_event))""";

  private record Entry(String stamp, Instant madeAt, Object value) {}

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final JdbcClient jdbc;
  private final Clock clock = Clock.systemUTC();

  DataCache(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** The value for {@code key} (which must name everything the value depends on besides the data). */
  @SuppressWarnings("unchecked")
  public <T> T get(String key, Supplier<T> make) {
    String stamp = jdbc.sql(STAMP).query(String.class).single();
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
