package org.perftrack.server.products;

import java.util.List;
import org.perftrack.server.db.Rows;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.problems.InvalidInput;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * What a script finds without scraping pages: the products, and a product's machines, versions and benchmarks,
 * a page at a time. Each page is one index range after the previous page's last key (no OFFSET), so the cost of a
 * page does not grow with history. Only the default branch's data; deleted versions, and versions only deleted machines
 * measured, are left out.
 */
@Service
class Discovery {

  /** One page of a list: {@code next} is the {@code after} value of the next page, null on the last. */
  record Page<T>(List<T> items, String next) {

    static <T> Page<T> of(List<T> fetched, int limit, java.util.function.Function<T, String> key) {
      return fetched.size() > limit ? new Page<>(fetched.subList(0, limit), key.apply(fetched.get(limit - 1)))
          : new Page<>(fetched, null);
    }
  }

  record Product(String name, long versions) {}

  record Machine(String name, String os, String cpu, Integer cores, Long memoryMb) {}

  record Version(String name) {}

  record Metric(String benchmark, String metric, String unit, Direction direction, long machines) {}

  private final JdbcClient jdbc;

  Discovery(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  static final String PRODUCTS = """
      SELECT name, live_version_count(id) AS versions FROM product WHERE name > ? AND deletion_id IS NULL
      ORDER BY name LIMIT ?""";

  Page<Product> products(String after, int limit) {
    return Page.of(jdbc.sql(PRODUCTS).params(after == null ? "" : after, limit + 1).query(Product.class).list(), limit,
        Product::name);
  }

  /** The machines with series of the product (the series table: no history read). */
  static final String MACHINES = """
      SELECT m.name, m.os, m.cpu, m.cores, m.memory_mb FROM machine m
      WHERE m.name > ? AND m.deletion_id IS NULL
        AND EXISTS (SELECT 1 FROM series s WHERE s.product_id = ? AND s.machine_id = m.id)
      ORDER BY m.name LIMIT ?""";

  Page<Machine> machines(long productId, String after, int limit) {
    return Page.of(jdbc.sql(MACHINES).params(after == null ? "" : after, productId, limit + 1).query(Machine.class)
        .list(), limit, Machine::name);
  }

  /** Versions in version order from the one after {@code after}; {@code newest} turns the order round. */
  static final String VERSIONS_OLDEST = """
      SELECT v.name FROM version v
      WHERE v.product_id = :product AND v.deletion_id IS NULL AND NOT version_of_deleted_machines(v.id)
        AND v.sort_key > coalesce((SELECT a.sort_key FROM version a WHERE a.product_id = :product AND a.name = :after), '')
        AND (CAST(:machine AS text) IS NULL OR EXISTS (SELECT 1 FROM run r JOIN machine m ON m.id = r.machine_id
               WHERE r.version_id = v.id AND m.name = :machine AND r.deletion_id IS NULL))
      ORDER BY v.sort_key LIMIT :limit""";

  static final String VERSIONS_NEWEST = """
      SELECT v.name FROM version v
      WHERE v.product_id = :product AND v.deletion_id IS NULL AND NOT version_of_deleted_machines(v.id)
        AND (CAST(:after AS text) IS NULL
             OR v.sort_key < (SELECT a.sort_key FROM version a WHERE a.product_id = :product AND a.name = :after))
        AND (CAST(:machine AS text) IS NULL OR EXISTS (SELECT 1 FROM run r JOIN machine m ON m.id = r.machine_id
               WHERE r.version_id = v.id AND m.name = :machine AND r.deletion_id IS NULL))
      ORDER BY v.sort_key DESC LIMIT :limit""";

  static final String HAS_VERSION = "SELECT EXISTS (SELECT 1 FROM version WHERE product_id = ? AND name = ?\n      AND deletion_id IS NULL)";

  Page<Version> versions(long productId, String machine, boolean newest, String after, int limit) {
    if (after != null && !jdbc.sql(HAS_VERSION).params(productId, after).query(Boolean.class).single()) {
      throw new InvalidInput("after", "the product has no version " + after);
    }
    return Page.of(jdbc.sql(newest ? VERSIONS_NEWEST : VERSIONS_OLDEST).param("product", productId)
        .param("after", after).param("machine", machine).param("limit", limit + 1).query(Version.class).list(), limit,
        Version::name);
  }

  /** Each benchmark and metric of the product with the number of machines measuring it, by benchmark name. */
  static final String METRICS = """
      SELECT s.benchmark, s.metric, min(s.unit) AS unit, min(s.direction) AS direction, count(*) AS machines
      FROM series s
      WHERE s.product_id = ? AND s.benchmark > ?
        AND s.benchmark IN (SELECT DISTINCT b.benchmark FROM series b WHERE b.product_id = ? AND b.benchmark > ?
                            ORDER BY b.benchmark LIMIT ?)
      GROUP BY s.benchmark, s.metric ORDER BY s.benchmark, s.metric""";

  /** A page of benchmarks (every metric of each: a page never splits a benchmark). */
  Page<Metric> benchmarks(long productId, String after, int limit) {
    String from = after == null ? "" : after;
    List<Metric> rows = jdbc.sql(METRICS).params(productId, from, productId, from, limit + 1).query(Rows.of(Metric.class))
        .list();
    List<String> names = rows.stream().map(Metric::benchmark).distinct().toList();
    if (names.size() <= limit) {
      return new Page<>(rows, null);
    }
    java.util.Set<String> page = java.util.Set.copyOf(names.subList(0, limit));
    return new Page<>(rows.stream().filter(m -> page.contains(m.benchmark())).toList(), names.get(limit - 1));
  }
}
