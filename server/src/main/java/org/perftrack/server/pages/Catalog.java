package org.perftrack.server.pages;

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
    return jdbc.sql("SELECT name FROM product WHERE deletion_id IS NULL ORDER BY name").query(String.class).list();
  }

  /** Oldest first. */
  public List<String> versions(String product) {
    return jdbc.sql("""
        SELECT v.name FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ? AND v.deletion_id IS NULL
          AND NOT version_of_deleted_machines(v.id)
        ORDER BY v.sort_key""")
        .param(product).query(String.class).list();
  }

  /** Versions a picker offers: the newest {@code n}, oldest first (any other can be typed). */
  public List<String> recentVersions(String product, int n) {
    List<String> newest = new java.util.ArrayList<>(jdbc.sql("""
        SELECT v.name FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ? AND v.deletion_id IS NULL
          AND NOT version_of_deleted_machines(v.id)
        ORDER BY v.sort_key DESC LIMIT ?""").params(product, n).query(String.class).list());
    java.util.Collections.reverse(newest);
    return newest;
  }

  public boolean hasVersion(String product, String version) {
    return version != null && jdbc.sql("""
        SELECT 1 FROM version v JOIN product p ON p.id = v.product_id WHERE p.name = ? AND v.name = ?
          AND v.deletion_id IS NULL""")
        .params(product, version).query(Integer.class).optional().isPresent();
  }

  /** The version just before {@code version} in version order, if any. */
  public java.util.Optional<String> versionBefore(String product, String version) {
    return jdbc.sql("""
        SELECT b.name FROM version v JOIN product p ON p.id = v.product_id
        JOIN version b ON b.product_id = v.product_id AND b.sort_key < v.sort_key AND b.deletion_id IS NULL
          AND NOT version_of_deleted_machines(b.id)
        WHERE p.name = ? AND v.name = ? ORDER BY b.sort_key DESC LIMIT 1""")
        .params(product, version).query(String.class).optional();
  }

  public List<String> machines() {
    return jdbc.sql("SELECT name FROM machine WHERE deletion_id IS NULL ORDER BY name").query(String.class).list();
  }

  /** Machines that measured both versions of the product. */
  public List<String> machinesWithBoth(String product, String base, String head) {
    return jdbc.sql(MACHINES_WITH_BOTH).params(product, base, product, head).query(String.class).list();
  }

  /** Two probes of run (version_id, machine_id) per machine, whatever the history. */
  static final String MACHINES_WITH_BOTH = """
      SELECT m.name FROM machine m
      WHERE m.deletion_id IS NULL AND EXISTS (SELECT 1 FROM product p JOIN version v ON v.product_id = p.id
                    JOIN run r ON r.version_id = v.id AND r.machine_id = m.id AND r.deletion_id IS NULL
                    WHERE p.name = ? AND v.name = ? AND v.deletion_id IS NULL)
        AND EXISTS (SELECT 1 FROM product p JOIN version v ON v.product_id = p.id
                    JOIN run r ON r.version_id = v.id AND r.machine_id = m.id AND r.deletion_id IS NULL
                    WHERE p.name = ? AND v.name = ? AND v.deletion_id IS NULL)
      ORDER BY m.name""";

  public List<String> benchmarks() {
    return jdbc.sql("SELECT DISTINCT benchmark FROM series ORDER BY benchmark").query(String.class).list();
  }
}
