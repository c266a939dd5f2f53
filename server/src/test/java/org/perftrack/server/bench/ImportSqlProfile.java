package org.perftrack.server.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.perftrack.server.PerftrackApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Where PostgreSQL's time goes in an import of {@link ImportBenchmark}'s shape: {@code pg_stat_statements} loaded
 * (the server started twice on one data directory), a warm-up import and {@code rounds} imports of {@code runs}
 * runs, then the statements of the last import by total time (nested statements of triggers and functions too).
 * Then what the import's rows cost PostgreSQL to write, index by index: the last import's 100,000 results and
 * points inserted again (fresh keys) in variants, each in a transaction rolled back, against the same rows into a
 * bare table. {@code -Dcheckpoint=true} checkpoints before each variant (every page's first change then logs
 * the whole page, as after a checkpoint in real use).
 *
 * <p>Run: {@code bench/run-main.sh org.perftrack.server.bench.ImportSqlProfile [runs] [rounds]}
 */
public final class ImportSqlProfile {

  private static final String TOKEN = "bench-token-0123456789";

  public static void main(String[] args) throws Exception {
    int runs = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    Path dir = Files.createTempDirectory("perftrack-import-profile");
    String[] appArgs = {"--server.port=0", "--perftrack.embedded-db.dir=" + dir.resolve("db"),
        "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.admin.password=bench",
        "--perftrack.alerts.enabled=false", "--logging.level.root=WARN"};
    try {
      try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class).run(appArgs)) {
        app.getBean(JdbcClient.class).sql("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'").update();
      }
      try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class).run(appArgs)) {
        JdbcClient jdbc = app.getBean(JdbcClient.class);
        jdbc.sql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements").update();
        jdbc.sql("ALTER SYSTEM SET pg_stat_statements.track = 'all'").update();
        jdbc.sql("SELECT pg_reload_conf()").query().singleValue();
        URI endpoint = URI.create("http://localhost:" + ((WebServerApplicationContext) app).getWebServer().getPort()
            + "/api/v1/runs:import");
        HttpClient http = HttpClient.newHttpClient();
        post(http, endpoint, BenchmarkRuns.ndjson(BenchmarkRuns.runs("warmup", 200, new Random(1))));
        for (int round = 1; round <= rounds; round++) {
          byte[] body = BenchmarkRuns.ndjson(BenchmarkRuns.runs("round" + round, runs, new Random(round)));
          if (round == rounds) {
            jdbc.sql("SELECT pg_stat_statements_reset()").query().singleValue();
          }
          long t0 = System.nanoTime();
          post(http, endpoint, body);
          System.out.printf("round %d: %.2f s%n", round, (System.nanoTime() - t0) / 1e9);
        }
        System.out.println("last import's statements by total time (ms), calls, rows, mean ms:");
        jdbc.sql("""
            SELECT round(total_exec_time::numeric, 1) AS total, calls, rows, round(mean_exec_time::numeric, 3) AS mean,
                   left(regexp_replace(query, '\\s+', ' ', 'g'), 150) AS q
            FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 30""").query().listOfRows()
            .forEach(r -> System.out.printf("%9s %6s %8s %9s  %s%n", r.get("total"), r.get("calls"), r.get("rows"),
                r.get("mean"), r.get("q")));
        experiments(app.getBean(javax.sql.DataSource.class));
      }
    } finally {
      org.springframework.util.FileSystemUtils.deleteRecursively(dir);
    }
  }

  /** PostgreSQL's time for the import's row writes in variants, each in a transaction that is rolled back. */
  static final boolean CHECKPOINT = Boolean.getBoolean("checkpoint");

  static void experiments(javax.sql.DataSource ds) throws Exception {
    String rows = "SELECT md5(run_id::text || '%1$d')::uuid, series_id + %1$d * 1000000000::bigint, version_id, samples, n, min, median, mean, max,"
        + " stddev FROM result WHERE version_id IN (SELECT id FROM version WHERE product_id = (SELECT max(id) FROM product))";
    String points = "SELECT series_id + %1$d * 1000000000::bigint, sort_key, version_id, level, within_se, positive, sample_count"
        + " FROM detection_point WHERE version_id IN (SELECT id FROM version WHERE product_id = (SELECT max(id) FROM product))";
    String[][] variants = {
        {"result, as is", "", "INSERT INTO result " + rows},
        {"result without its primary key", "ALTER TABLE result DROP CONSTRAINT result_pkey", "INSERT INTO result " + rows},
        {"result without (series, version)", "DROP INDEX result_series_version_idx", "INSERT INTO result " + rows},
        {"result without indexes", "ALTER TABLE result DROP CONSTRAINT result_pkey; DROP INDEX result_series_version_idx",
            "INSERT INTO result " + rows},
        {"detection_point, as is", "", "INSERT INTO detection_point " + points},
        {"detection_point, no triggers", "ALTER TABLE detection_point DISABLE TRIGGER USER", "INSERT INTO detection_point " + points},
        {"detection_point, no index, no triggers", "ALTER TABLE detection_point DISABLE TRIGGER USER; ALTER TABLE detection_point DROP CONSTRAINT detection_point_pkey", "INSERT INTO detection_point " + points},
        {"detection_point, sorted by series, key", "", "INSERT INTO detection_point " + points + " ORDER BY 1, 2"},
        {"bare copy of result rows", "CREATE TABLE bare_result AS SELECT * FROM result LIMIT 0", "INSERT INTO bare_result " + rows},
        {"bare copy of points", "CREATE TABLE bare_point AS SELECT * FROM detection_point LIMIT 0",
            "INSERT INTO bare_point " + points},
        // the alternative: a run's results as one row (series ids and samples as arrays), keyed by the run
        {"results as one row per run (its key only)", "CREATE TABLE run_rows_source AS SELECT run_id,"
            + " array_agg(series_id ORDER BY series_id) AS series, array_agg(samples ORDER BY series_id) AS samples"
            + " FROM result WHERE version_id IN (SELECT id FROM version WHERE product_id = (SELECT max(id) FROM product))"
            + " GROUP BY run_id; CREATE TABLE run_rows (run_id uuid PRIMARY KEY, series bigint[], samples float8[])",
            "INSERT INTO run_rows SELECT md5(run_id::text || '%1$d')::uuid, series, samples FROM run_rows_source"},
    };
    try (java.sql.Connection c = ds.getConnection(); java.sql.Statement st = c.createStatement()) {
      for (String setting : List.of("shared_buffers", "full_page_writes", "fsync", "wal_level", "wal_buffers",
          "max_wal_size", "checkpoint_timeout", "synchronous_commit")) {
        try (java.sql.ResultSet rs = st.executeQuery("SHOW " + setting)) {
          rs.next();
          System.out.println(setting + " = " + rs.getString(1));
        }
      }
      try (java.sql.ResultSet rs = st.executeQuery("SELECT indexrelid::regclass, pg_size_pretty(pg_relation_size(indexrelid))"
          + " FROM pg_index WHERE indrelid IN ('result'::regclass, 'detection_point'::regclass)")) {
        while (rs.next()) {
          System.out.println(rs.getString(1) + " " + rs.getString(2));
        }
      }
    }
    int fresh = 0; // fresh keys in every variant: a rolled-back insert leaves dead index entries behind
    for (int rep = 0; rep < 3; rep++) {
      for (String[] v : variants) {
        try (java.sql.Connection c = ds.getConnection()) {
          c.setAutoCommit(false);
          try (java.sql.Statement st = c.createStatement()) {
            if (!v[1].isEmpty()) {
              for (String ddl : v[1].split("; ")) {
                st.execute(ddl);
              }
            }
            if (CHECKPOINT) {
              st.execute("CHECKPOINT");
            }
            long t0 = System.nanoTime();
            int n = st.executeUpdate(String.format(v[2], ++fresh));
            System.out.printf("%-45s %7d rows %7.1f ms%n", v[0], n, (System.nanoTime() - t0) / 1e6);
          } finally {
            c.rollback();
          }
        }
      }
    }
  }

  private static void post(HttpClient http, URI endpoint, byte[] body) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(endpoint)
        .header("Authorization", "Bearer " + TOKEN).header("Content-Type", "application/x-ndjson")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200 || !r.body().contains("\"failed\":0")) {
      throw new IllegalStateException("import answered " + r.statusCode() + ": " + r.body());
    }
  }
}
