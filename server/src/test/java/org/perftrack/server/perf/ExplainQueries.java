package org.perftrack.server.perf;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.perftrack.server.PerftrackApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Prints EXPLAIN (ANALYZE, BUFFERS) of the pages' SQL on a seeded database, to check that they
 * probe indexes instead of scanning all results. The statements are read from the classes that run
 * them (their {@code static final} text), so this shows the SQL the pages really send.
 * Run it with {@code bench/pages.sh explain [dir]}.
 */
public final class ExplainQueries {

  private ExplainQueries() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "target/perf-db");
    try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(PerftrackApplication.class)
        .run("--perftrack.embedded-db.dir=" + dir.toAbsolutePath(), "--server.port=0", "--logging.level.root=WARN")) {
      JdbcClient jdbc = ctx.getBean(JdbcClient.class);
      for (var e : statements(jdbc).entrySet()) {
        String[] target = e.getKey().split("#");
        String sql = sql(target[0], target[1]);
        System.out.println("==== " + e.getKey());
        jdbc.sql("EXPLAIN (ANALYZE, BUFFERS) " + sql).params(e.getValue()).query(String.class).list()
            .forEach(System.out::println);
      }
    }
  }

  /** Each statement (class#field) with parameters typical of the seeded database. */
  static Map<String, List<Object>> statements(JdbcClient jdbc) {
    long product = jdbc.sql("SELECT id FROM product WHERE name = ?").param(SeedDatabase.PRODUCT).query(Long.class).single();
    long machine = jdbc.sql("SELECT min(id) FROM machine").query(Long.class).single();
    long series = jdbc.sql("SELECT min(id) FROM series WHERE product_id = ?").param(product).query(Long.class).single();
    String windowStart = jdbc.sql("SELECT min(sort_key) FROM (SELECT sort_key FROM version WHERE product_id = ? "
        + "ORDER BY sort_key DESC LIMIT 40) w").param(product).query(String.class).single();
    java.util.UUID run = jdbc.sql("SELECT id FROM run LIMIT 1").query(java.util.UUID.class).single();
    Map<String, List<Object>> m = new LinkedHashMap<>();
    m.put("org.perftrack.server.home.HomeController#PRODUCTS", List.of());
    m.put("org.perftrack.server.home.HomeController#MACHINES", List.of());
    m.put("org.perftrack.server.series.RunQueries#LATEST", List.of(20));
    m.put("org.perftrack.server.products.ProductQueries#TRENDS", List.of(windowStart, product));
    m.put("org.perftrack.server.dashboard.DataCache#STAMP", List.of());
    m.put("org.perftrack.server.products.RegressionMarkers#MARKERS", List.of((Object) new Long[] {series}));
    m.put("org.perftrack.server.series.SeriesQueries#POINTS_OF_MANY", List.of((Object) new Long[] {series, series + 1}));
    m.put("org.perftrack.server.compare.CompareTable#SPREADS", List.of(SeedDatabase.PRODUCT, "1.7.14-1", "1.7.15-1",
        new String[] {"perf-m01", "perf-m02"}));
    m.put("org.perftrack.server.products.SeriesChart#SERIES", List.of(SeedDatabase.PRODUCT, "write-64b", "time-per-op"));
    m.put("org.perftrack.server.series.SeriesQueries#POINTS", List.of(series));
    m.put("org.perftrack.server.series.RunQueries#RESULTS", List.of(run));
    m.put("org.perftrack.server.machines.MachineQueries#MEASURED", List.of(machine));
    return m;
  }

  static String sql(String className, String field) throws ReflectiveOperationException {
    Field f = Class.forName(className).getDeclaredField(field);
    f.setAccessible(true);
    return (String) f.get(null);
  }
}
