package org.perftrack.server.perf;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import javax.sql.DataSource;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.ingest.IngestService;
import org.perftrack.server.versions.VersionKey;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Fills an embedded database with a large, realistic history for the page-latency benchmark:
 * by default 20 machines × 200 versions × 50 metrics × 5 samples = 1,000,000 samples (200,000
 * results in 4,000 runs). All but the last {@link #TAIL} versions are bulk-loaded with COPY (the schema
 * comes from the server's own Flyway); the last versions go through the real ingest service, so that
 * detection runs and finds the steps placed there (write-64b ×2.7 with its context switches ×400 on
 * every machine, pipe-bw/512 −20 % on half of them): the regression pages then have data.
 * Not part of {@code mvn verify}; run it with {@code bench/pages.sh seed [dir]}.
 */
public final class SeedDatabase {

  static final String PRODUCT = "cygwin";
  static final String[] BENCHMARKS = {"null-call", "write-64b", "read-64b", "sigprocmask", "signal-catch",
      "shell-builtins", "shell-test", "spawn", "configure", "fork", "pipe-bw/512", "pipe-bw/1024", "pipe-bw/2048",
      "pipe-bw/4096", "pipe-bw/8192", "pipe-bw/65536", "pipe-bw/131072", "pipe-latency", "lstat-dir", "readdir",
      "file-create", "tcp-latency", "mmap-4k", "select-idle", "exec-sh"};
  static final String[] METRICS = {"time-per-op", "ctx-switches-per-op"};

  /** Versions uploaded through ingest (and detection) rather than COPY. */
  static final int TAIL = 5;

  private SeedDatabase() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args.length > 0 ? args[0] : "target/perf-db");
    int machines = args.length > 1 ? Integer.parseInt(args[1]) : 20;
    int versions = args.length > 2 ? Integer.parseInt(args[2]) : 200;
    int samples = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    long start = System.nanoTime();
    try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(PerftrackApplication.class)
        // the whole server starts (on a free port): its security configuration needs the web stack
        // command-line arguments, because they override application.properties (builder properties would not)
        .run("--perftrack.embedded-db.dir=" + dir.toAbsolutePath(), "--server.port=0")) {
      try (Connection c = ctx.getBean(DataSource.class).getConnection()) {
        Seeder seeder = new Seeder(c, machines, versions, samples);
        long total = seeder.seed();
        total += new TailUploads(machines, versions, samples).ingest(ctx.getBean(IngestService.class));
        try (var st = c.createStatement()) {
          st.execute("VACUUM ANALYZE"); // as autovacuum would soon: index-only scans need the visibility map
        }
        System.out.printf(Locale.ROOT, "seeded %,d samples in %.1f s into %s%n", total,
            (System.nanoTime() - start) / 1e9, dir.toAbsolutePath());
      }
    }
  }

  /** One seeding pass over an open connection. */
  record Seeder(Connection c, int machines, int versions, int samples) {

    long seed() throws SQLException, IOException {
      if (count("SELECT count(*) FROM product WHERE name = '" + PRODUCT + "'") > 0) {
        throw new IllegalStateException("the database already holds product " + PRODUCT + "; seed an empty directory");
      }
      long productId = count("INSERT INTO product (name) VALUES ('" + PRODUCT + "') RETURNING id");
      List<Long> versionIds = insertVersions(productId);
      List<Long> machineIds = insertMachines();
      long[][] seriesIds = insertSeries(productId, machineIds);
      long total = runsAndResults(productId, versionIds, machineIds, seriesIds);
      try (var st = c.createStatement()) {
        c.setAutoCommit(true);
        st.execute(DETECTION_POINTS);
        st.execute("VACUUM ANALYZE");
      }
      return total;
    }

    /**
     * Detection keeps per-version summaries (detection_point) as it ingests; rows that COPY loaded
     * get theirs as migrations V10 and V11 gave them to results stored before detection existed.
     */
    static final String DETECTION_POINTS = """
        INSERT INTO detection_point (series_id, sort_key, version_id, level, within_se, positive, sample_count)
        SELECT series_id, sort_key, version_id,
               avg(x) FILTER (WHERE i > floor(n * 0.2) AND i <= n - floor(n * 0.2)), NULL, bool_and(x > 0),
               max(n)::integer
        FROM (SELECT r.series_id, v.sort_key, v.id AS version_id, u.x,
                     row_number() OVER (PARTITION BY r.series_id, v.id ORDER BY u.x) AS i,
                     count(*) OVER (PARTITION BY r.series_id, v.id) AS n
              FROM result r JOIN version v ON v.id = r.version_id, unnest(r.samples) AS u(x)) AS samples
        GROUP BY series_id, sort_key, version_id""";


    private List<Long> insertVersions(long productId) throws SQLException, IOException {
      StringBuilder copy = new StringBuilder();
      for (int i = 0; i < versions; i++) {
        String name = versionName(i);
        copy.append(productId).append('\t').append(name).append('\t').append(VersionKey.of(name)).append('\n');
      }
      copy("COPY version (product_id, name, sort_key) FROM STDIN", copy);
      return ids("SELECT id FROM version WHERE product_id = " + productId + " ORDER BY sort_key");
    }


    private List<Long> insertMachines() throws SQLException, IOException {
      StringBuilder copy = new StringBuilder();
      for (int m = 0; m < machines; m++) {
        copy.append(String.format(Locale.ROOT, "perf-m%02d\tWindows %s\tCPU model %d\t%d\t%d\t{\"antivirus\": \"%s\"}%n",
            m + 1, m % 2 == 0 ? "XP SP2" : "7 SP1", m % 4, 1 + m % 4, 1024L << (m % 3), m % 3 == 0 ? "NOD32" : "none"));
      }
      copy("COPY machine (name, os, cpu, cores, memory_mb, attributes) FROM STDIN", copy);
      return ids("SELECT id FROM machine WHERE name LIKE 'perf-m%' ORDER BY name");
    }

    private long[][] insertSeries(long productId, List<Long> machineIds) throws SQLException, IOException {
      StringBuilder copy = new StringBuilder();
      for (long machineId : machineIds) {
        for (String benchmark : BENCHMARKS) {
          for (String metric : METRICS) {
            boolean bandwidth = benchmark.startsWith("pipe-bw") && metric.equals("time-per-op");
            copy.append(productId).append('\t').append(machineId).append('\t').append(benchmark).append('\t')
                .append(bandwidth ? "bandwidth" : metric).append('\t')
                .append(bandwidth ? "MB/s" : metric.equals("time-per-op") ? "us" : "count").append('\t')
                .append(bandwidth ? "higher_is_better" : "lower_is_better").append('\n');
          }
        }
      }
      copy("COPY series (product_id, machine_id, benchmark, metric, unit, direction) FROM STDIN", copy);
      List<Long> ids = ids("SELECT id FROM series WHERE product_id = " + productId + " ORDER BY id");
      int perMachine = BENCHMARKS.length * METRICS.length;
      long[][] byMachine = new long[machineIds.size()][perMachine];
      for (int i = 0; i < ids.size(); i++) {
        byMachine[i / perMachine][i % perMachine] = ids.get(i);
      }
      return byMachine;
    }

    private long runsAndResults(long productId, List<Long> versionIds, List<Long> machineIds, long[][] seriesIds)
        throws SQLException, IOException {
      Random random = new Random(42);
      long total = 0;
      for (int m = 0; m < machineIds.size(); m++) {
        StringBuilder runs = new StringBuilder();
        StringBuilder results = new StringBuilder();
        for (int v = 0; v < versionIds.size() - TAIL; v++) {
          String runId = UUID.nameUUIDFromBytes(("perf-" + m + "-" + v).getBytes()).toString();
          runs.append(runId).append('\t').append(productId).append('\t').append(versionIds.get(v)).append('\t')
              .append(machineIds.get(m)).append("\tposix\t{\"name\": \"perf-m").append(String.format("%02d", m + 1))
              .append("\"}\t{\"compiler\": \"gcc 4.").append(v % 9).append("\"}\t").append(runId).append('\t')
              .append(java.time.Instant.parse("2026-01-01T00:00:00Z").plusSeconds(60L * (v * 20L + m))).append('\n');
          for (int s = 0; s < seriesIds[m].length; s++) {
            total += result(results, runId, seriesIds[m][s], versionIds.get(v), value(m, s, v, versions), random);
          }
        }
        copy("COPY run (id, product_id, version_id, machine_id, suite, machine_snapshot, attributes, content_hash, received_at) FROM STDIN",
            runs);
        copy("COPY result (run_id, series_id, version_id, samples, n, min, median, mean, max) FROM STDIN", results);
      }
      return total;
    }

    /** The true value of series {@code s} on machine {@code m} at version {@code v}: steps near the end. */
    static double value(int m, int s, int v, int versions) {
      double base = (1 + s % 7) * 10.0 * (1 + m * 0.05);
      boolean after = v >= versions - 3;
      if (s == 2 && after) {
        base *= 2.7; // write-64b time: the seed 003 regression
      }
      if (s == 3 && after) {
        base *= 400; // write-64b context switches: the seed 000 hint
      }
      if (s == 20 && after && m % 2 == 0) {
        base *= 0.8; // pipe-bw/512 bandwidth, lower is worse (seed 001)
      }
      return base;
    }

    private int result(StringBuilder out, String runId, long seriesId, long versionId, double value, Random random) {
      double[] x = new double[samples];
      for (int i = 0; i < samples; i++) {
        x[i] = value * (1 + random.nextGaussian() * 0.01);
      }
      double[] sorted = x.clone();
      java.util.Arrays.sort(sorted);
      double median = samples % 2 == 1 ? sorted[samples / 2] : (sorted[samples / 2 - 1] + sorted[samples / 2]) / 2;
      out.append(runId).append('\t').append(seriesId).append('\t').append(versionId).append("\t{");
      for (int i = 0; i < samples; i++) {
        out.append(i == 0 ? "" : ",").append(x[i]);
      }
      out.append("}\t").append(samples).append('\t').append(sorted[0]).append('\t').append(median).append('\t')
          .append(java.util.Arrays.stream(x).average().orElseThrow()).append('\t').append(sorted[samples - 1]).append('\n');
      return samples;
    }

    private void copy(String sql, CharSequence data) throws SQLException, IOException {
      CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
      copy.copyIn(sql, new StringReader(data.toString()));
    }

    private long count(String sql) throws SQLException {
      try (var st = c.createStatement(); var rs = st.executeQuery(sql)) {
        rs.next();
        return rs.getLong(1);
      }
    }

    private List<Long> ids(String sql) throws SQLException {
      List<Long> ids = new ArrayList<>();
      try (var st = c.createStatement(); var rs = st.executeQuery(sql)) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
      return ids;
    }

    /** 200 distinct versions across three release lines, with package revisions: 1.5.0-1 … 1.7.16-4. */
    static String versionName(int i) {
      return "1." + (5 + i / 68) + "." + (i % 68) / 4 + "-" + (i % 4 + 1);
    }
  }
}
