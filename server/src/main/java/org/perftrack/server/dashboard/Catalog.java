package org.perftrack.server.dashboard;

import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** The names the pages offer in their pickers: products, their versions in order, machines, benchmarks. */
@Service
public class Catalog {

  private final JdbcClient jdbc;

  Catalog(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  public List<String> products() {
    return jdbc.sql("SELECT name FROM product ORDER BY name").query(String.class).list();
  }

  /** Oldest first. */
  public List<String> versions(String product) {
    return jdbc.sql("""
        SELECT v.name FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ? ORDER BY v.sort_key""")
        .param(product).query(String.class).list();
  }

  public List<String> machines() {
    return jdbc.sql("SELECT name FROM machine ORDER BY name").query(String.class).list();
  }

  /** Machines that measured both versions of the product. */
  public List<String> machinesWithBoth(String product, String base, String head) {
    return jdbc.sql("""
        SELECT m.name FROM run r JOIN machine m ON m.id = r.machine_id JOIN version v ON v.id = r.version_id
        JOIN product p ON p.id = r.product_id
        WHERE p.name = ? AND v.name IN (?, ?)
        GROUP BY m.name HAVING count(DISTINCT v.name) = 2 ORDER BY m.name""")
        .params(product, base, head).query(String.class).list();
  }

  public List<String> benchmarks() {
    return jdbc.sql("SELECT DISTINCT benchmark FROM series ORDER BY benchmark").query(String.class).list();
  }
}
