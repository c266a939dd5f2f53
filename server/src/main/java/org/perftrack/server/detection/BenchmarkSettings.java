package org.perftrack.server.detection;

import org.perftrack.server.audit.Audit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Per-benchmark knobs of a product (minimum change, ignore), stored in {@code benchmark_setting}. */
@Repository
class BenchmarkSettings {

  /** {@code minChange} null means the default: max(2 %, the series' between-session noise). */
  record Setting(String benchmark, Double minChange, boolean ignored) {

    DetectionSettings apply(DetectionSettings defaults) {
      DetectionSettings s = minChange == null ? defaults : defaults.withMinChange(minChange);
      return s.withIgnored(ignored);
    }
  }

  private final JdbcClient jdbc;
  private final Audit audit;

  BenchmarkSettings(JdbcClient jdbc, Audit audit) {
    this.audit = audit;
    this.jdbc = jdbc;
  }

  static final String FOR_PRODUCT = """
      SELECT benchmark, min_change, ignored FROM benchmark_setting WHERE product_id = ? ORDER BY benchmark""";

  Map<String, Setting> forProduct(long productId) {
    Map<String, Setting> out = new HashMap<>();
    jdbc.sql(FOR_PRODUCT).param(productId).query(Setting.class).list().forEach(s -> out.put(s.benchmark(), s));
    return out;
  }

  List<Setting> list(long productId) {
    return jdbc.sql(FOR_PRODUCT).param(productId).query(Setting.class).list();
  }

  static final String UPSERT = """
      INSERT INTO benchmark_setting (product_id, benchmark, min_change, ignored, updated_by, updated_at)
      VALUES (?, ?, ?, ?, ?, now())
      ON CONFLICT (product_id, benchmark) DO UPDATE
      SET min_change = EXCLUDED.min_change, ignored = EXCLUDED.ignored,
          updated_by = EXCLUDED.updated_by, updated_at = now()""";

  void save(long productId, Setting s, String by) {
    jdbc.sql(UPSERT).params(productId, s.benchmark(), s.minChange(), s.ignored(), by).update();
    audit.record(by, "changed settings", "benchmark " + s.benchmark() + " of product " + productId,
        "min change " + (s.minChange() == null ? "default" : s.minChange()) + ", ignored " + s.ignored());
  }

  static final String PRODUCT = "SELECT id FROM product WHERE name = ?";

  Optional<Long> productId(String name) {
    return jdbc.sql(PRODUCT).param(name).query(Long.class).optional();
  }
}
