package org.perftrack.server.perf;

import java.nio.file.Path;
import java.util.Locale;
import org.perftrack.server.PerftrackApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What a database's samples cost on disk: each table with its indexes and TOAST, the whole database, and bytes per
 * stored sample. Run it with {@code bench/pages.sh size [dir]} on a seeded database ({@link SeedDatabase}).
 */
public final class SizeReport {

  static final String TABLES = """
      SELECT c.relname, c.reltuples::bigint AS rows, pg_table_size(c.oid) AS table_bytes,
             pg_indexes_size(c.oid) AS index_bytes, pg_total_relation_size(c.oid) AS total
      FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
      ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 8""";

  private SizeReport() {}

  public static void main(String[] args) {
    Path dir = Path.of(args.length > 0 ? args[0] : "target/perf-db");
    try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(PerftrackApplication.class)
        .run("--perftrack.embedded-db.dir=" + dir.toAbsolutePath(), "--server.port=0", "--logging.level.root=WARN")) {
      JdbcClient jdbc = ctx.getBean(JdbcClient.class);
      long samples = jdbc.sql("SELECT coalesce(sum(cardinality(samples)), 0) FROM result").query(Long.class).single();
      long database = jdbc.sql("SELECT pg_database_size(current_database())").query(Long.class).single();
      System.out.printf(Locale.ROOT, "%-18s %14s %10s %10s %10s %9s%n", "table", "rows", "table MB", "index MB",
          "total MB", "B/sample");
      jdbc.sql(TABLES).query((java.sql.ResultSet rs) -> {
        System.out.printf(Locale.ROOT, "%-18s %,14d %10.1f %10.1f %10.1f %9.1f%n", rs.getString("relname"),
            rs.getLong("rows"), rs.getLong("table_bytes") / 1e6, rs.getLong("index_bytes") / 1e6,
            rs.getLong("total") / 1e6, samples == 0 ? 0 : (double) rs.getLong("total") / samples);
      });
      System.out.printf(Locale.ROOT, "%,d samples; database %.1f MB: %.1f bytes a sample%n", samples, database / 1e6,
          samples == 0 ? 0 : (double) database / samples);
    }
  }
}
