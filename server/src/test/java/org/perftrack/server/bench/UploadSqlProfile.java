package org.perftrack.server.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.perftrack.server.db.Json;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.wire.RunUpload;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Where PostgreSQL's time goes in the uploads of {@link UploadCpuBenchmark}: the same uploads with
 * {@code pg_stat_statements} loaded (the server is started twice on one data directory: once to set
 * {@code shared_preload_libraries}, then for the uploads), and the statements' calls and time per upload,
 * plus the CPU of the backends alone and of all postgres processes; then the PostgreSQL CPU of the window read
 * alone in variants (300 reads each), and its plans.
 *
 * <p>Run: {@code bench/run-main.sh org.perftrack.server.bench.UploadSqlProfile [uploads] [history]}
 */
public final class UploadSqlProfile {

  private static final String TOKEN = "bench-token-0123456789";
  private static final int RESULTS = 100;
  private static final int SAMPLES = 5; // as UploadCpuBenchmark.run makes them

  public static void main(String[] args) throws Exception {
    int uploads = args.length > 0 ? Integer.parseInt(args[0]) : 200;
    int history = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    Path dir = Files.createTempDirectory("perftrack-sql-profile");
    String[] appArgs = {"--server.port=0", "--perftrack.embedded-db.dir=" + dir.resolve("db"),
        "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.admin.password=bench",
        "--perftrack.alerts.enabled=false", "--logging.level.root=WARN"};
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class).run(appArgs)) {
      JdbcClient jdbc = app.getBean(JdbcClient.class);
      jdbc.sql("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'").update();
    }
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class).run(appArgs)) {
      JdbcClient jdbc = app.getBean(JdbcClient.class);
      jdbc.sql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements").update();
      jdbc.sql("ALTER SYSTEM SET pg_stat_statements.track_planning = on").update();
      jdbc.sql("SELECT pg_reload_conf()").query().singleValue();
      String base = "http://localhost:" + ((WebServerApplicationContext) app).getWebServer().getPort()
          + "/api/v1/runs";
      HttpClient http = HttpClient.newHttpClient();
      Random random = new Random(7);
      double[] levels = new double[RESULTS];
      for (int i = 0; i < RESULTS; i++) {
        levels[i] = 10 + random.nextInt(1000);
      }
      int version = 0;
      for (int i = 0; i < history; i++) {
        UploadCpuBenchmark.post(http, base, Json.MAPPER.writeValueAsString(UploadCpuBenchmark.run(++version, levels, random)));
      }
      jdbc.sql("ANALYZE").update();
      List<String> bodies = new ArrayList<>();
      for (int i = 0; i < uploads; i++) {
        bodies.add(Json.MAPPER.writeValueAsString(UploadCpuBenchmark.run(++version, levels, random)));
      }
      Path pgData = dir.resolve("db");
      jdbc.sql("SELECT pg_stat_statements_reset()").query().singleValue();
      Map<Long, Long> all0 = UploadCpuBenchmark.postgresCpu(pgData);
      Map<Long, Long> backends0 = UploadCpuBenchmark.postgresCpu(pgData, true);
      for (String body : bodies) {
        UploadCpuBenchmark.post(http, base, body);
      }
      double all = UploadCpuBenchmark.delta(all0, UploadCpuBenchmark.postgresCpu(pgData)) / 1e6 / uploads;
      double backends = UploadCpuBenchmark.delta(backends0, UploadCpuBenchmark.postgresCpu(pgData, true)) / 1e6
          / uploads;
      System.out.printf(Locale.ROOT, "%d uploads of %d results x %d samples after %d versions: PostgreSQL CPU per"
          + " upload %.2f ms (backends %.2f ms)%n", uploads, RESULTS, SAMPLES, history, all, backends);
      System.out.println("calls/upload  exec ms/upload  plan ms/upload  rows/upload  statement");
      jdbc.sql("""
          SELECT calls, total_exec_time, total_plan_time, rows, query FROM pg_stat_statements
          WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_exec_time + total_plan_time DESC""")
          .query((rs, n) -> String.format(Locale.ROOT, "%12.2f  %14.3f  %14.3f  %11.1f  %s",
              rs.getLong(1) / (double) uploads, rs.getDouble(2) / uploads, rs.getDouble(3) / uploads,
              rs.getLong(4) / (double) uploads, rs.getString(5).replaceAll("\\s+", " ")))
          .list().stream().limit(40).forEach(System.out::println);
      String key = jdbc.sql("SELECT max(sort_key) || 'z' FROM version").query(String.class).single();
      Long[] series = jdbc.sql("SELECT id FROM series ORDER BY id").query(Long.class).list().toArray(Long[]::new);
      int side = 2 * app.getBean(org.perftrack.server.detection.DetectionProperties.class).window();
      String window = System.getProperty("window.sql", WINDOW);
      // the window read alone, in variants, 300 times each: PostgreSQL backend CPU per execution
      String[] variants = {WINDOW, WINDOW.replace("ORDER BY w.series_id, w.sort_key", ""), NARROW, AGG};
      String[] labels = {"sorted by PostgreSQL (before upload3)", "unsorted (WindowRead.WINDOW)",
          "unsorted, one column", "one row per series, arrays"};
      for (int round = 0; round < 2; round++) {
        for (int v = 0; v < variants.length; v++) {
          String sql = variants[v];
          Object[] params = {series, key, side, key, side + 1};
          Map<Long, Long> cpu0 = UploadCpuBenchmark.postgresCpu(pgData, true);
          int rows = 0;
          for (int i = 0; i < 300; i++) {
            rows = jdbc.sql(sql).params(params).query().listOfRows().size();
          }
          System.out.printf(Locale.ROOT, "window read %s: %d rows, PostgreSQL backends %.2f ms per read%n", labels[v], rows,
              UploadCpuBenchmark.delta(cpu0, UploadCpuBenchmark.postgresCpu(pgData, true)) / 1e6 / 300);
        }
      }
      try (java.sql.Connection c = app.getBean(javax.sql.DataSource.class).getConnection()) {
        for (String mode : new String[] {"force_custom_plan", "force_generic_plan"}) {
          c.createStatement().execute("SET plan_cache_mode = " + mode);
          for (int i = 0; i < 2; i++) {
            java.sql.PreparedStatement ps = c.prepareStatement("EXPLAIN (ANALYZE, BUFFERS) " + window);
            ps.setArray(1, c.createArrayOf("bigint", series));
            ps.setString(2, key);
            ps.setInt(3, side);
            ps.setString(4, key);
            ps.setInt(5, side + 1);
            System.out.println("-- " + mode);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                System.out.println(rs.getString(1));
              }
            }
          }
        }
      }
    } finally {
      org.springframework.util.FileSystemUtils.deleteRecursively(dir); // its database: about 1 GB a run
    }
  }

  static final String WINDOW = """
      SELECT w.series_id, w.before, w.version_id, w.level, w.within_se, w.positive, w.sample_count
      FROM unnest(?::bigint[]) AS s(id)
      CROSS JOIN LATERAL (
        (SELECT p.series_id, true AS before, p.sort_key, p.version_id, p.level, p.within_se, p.positive,
                p.sample_count
          FROM detection_point p
          WHERE p.series_id = s.id AND p.sort_key < ? ORDER BY p.sort_key DESC LIMIT ?)
        UNION ALL
        (SELECT p.series_id, false AS before, p.sort_key, p.version_id, p.level, p.within_se, p.positive,
                p.sample_count
          FROM detection_point p
          WHERE p.series_id = s.id AND p.sort_key >= ? ORDER BY p.sort_key LIMIT ?)
      ) AS w
      ORDER BY w.series_id, w.sort_key""";

  static final String NARROW = """
      SELECT s.id, w.lv
      FROM unnest(?::bigint[]) AS s(id)
      CROSS JOIN LATERAL (
        (SELECT p.version_id AS lv
          FROM detection_point p
          WHERE p.series_id = s.id AND p.sort_key < ? ORDER BY p.sort_key DESC LIMIT ?)
        UNION ALL
        (SELECT p.version_id
          FROM detection_point p
          WHERE p.series_id = s.id AND p.sort_key >= ? ORDER BY p.sort_key LIMIT ?)
      ) AS w""";

  static final String AGG = """
      SELECT s.id, w.before, w.version_ids, w.levels, w.within_ses, w.positives, w.sample_counts
      FROM unnest(?::bigint[]) AS s(id)
      CROSS JOIN LATERAL (
        SELECT count(*) FILTER (WHERE u.before) AS before, array_agg(u.version_id) AS version_ids,
               array_agg(u.level) AS levels, array_agg(u.within_se) AS within_ses, array_agg(u.positive) AS positives,
               array_agg(u.sample_count) AS sample_counts
        FROM (
          (SELECT true AS before, p.version_id, p.level, p.within_se, p.positive, p.sample_count
            FROM detection_point p
            WHERE p.series_id = s.id AND p.sort_key < ? ORDER BY p.sort_key DESC LIMIT ?)
          UNION ALL
          (SELECT false AS before, p.version_id, p.level, p.within_se, p.positive, p.sample_count
            FROM detection_point p
            WHERE p.series_id = s.id AND p.sort_key >= ? ORDER BY p.sort_key LIMIT ?)
        ) AS u
      ) AS w""";

}
