package org.perftrack.server.products;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Keeps the product page's view until a run arrives. The page reads every series of the product
 * (1,000 on the benchmark database), while its data only changes on upload; the newest
 * {@code run.received_at} (one probe of {@code run_received_idx}) says whether one came. A run
 * whose transaction started before the newest one but committed after it would not move that
 * stamp, so entries also expire after {@link #MAX_AGE}.
 */
@Component
class ProductPageCache {

  static final Duration MAX_AGE = Duration.ofSeconds(60);
  private static final int MAX_ENTRIES = 200;

  private record Entry(Instant stamp, Instant madeAt, ProductPage page) {}

  private final Map<String, Entry> entries = new ConcurrentHashMap<>();
  private final JdbcClient jdbc;
  private final Clock clock;

  ProductPageCache(JdbcClient jdbc) {
    this.jdbc = jdbc;
    this.clock = Clock.systemUTC();
  }

  ProductPage get(String product, Supplier<ProductPage> make) {
    Instant stamp = jdbc.sql("SELECT max(received_at) FROM run").query(Instant.class).optional().orElse(Instant.EPOCH);
    Instant now = clock.instant();
    Entry entry = entries.get(product);
    if (entry != null && entry.stamp().equals(stamp) && entry.madeAt().plus(MAX_AGE).isAfter(now)) {
      return entry.page();
    }
    ProductPage page = make.get();
    if (entries.size() >= MAX_ENTRIES) {
      entries.clear();
    }
    entries.put(product, new Entry(stamp, now, page));
    return page;
  }
}
