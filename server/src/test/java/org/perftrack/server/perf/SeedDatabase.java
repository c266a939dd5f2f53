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
import org.perftrack.server.db.BinaryCopy;
import org.perftrack.server.detection.VersionLevel;
import org.perftrack.server.ingest.IngestService;
import org.perftrack.wire.VersionKey;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Fills an embedded database with a large, realistic history for the page-latency benchmark:
 * by default 20 machines × 200 versions × 50 metrics × 5 samples = 1,000,000 samples (200,000
 * results in 4,000 runs). All but the last {@link #TAIL} versions are bulk-loaded with binary COPY in the layout
 * the server writes (the schema comes from the server's own Flyway; results keep raw samples only, and each
 * version's detection point is what detection computes, {@code VersionLevel.of}); the indexes of {@code result}
 * and {@code detection_point} are dropped during the load and built again with their own definitions. The last
 * versions go through the real ingest service, so that detection runs and finds the steps placed there
 * (write-64b ×2.7 with its context switches ×400 on every machine, pipe-bw/512 −20 % on half of them): the
 * regression pages then have data. Not part of {@code mvn verify}; run it with {@code bench/pages.sh seed [dir]}.
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
      List<String> sortKeys = new ArrayList<>();
      for (int v = 0; v < versions; v++) {
        sortKeys.add(VersionKey.of(versionName(v)));
      }
      List<Long> machineIds = insertMachines();
      long[][] seriesIds = insertSeries(productId, machineIds);
      List<String> rebuild = dropIndexes("result", "detection_point");
      long start = System.nanoTime();
      // fewer checkpoints (each makes the next write of every page log the whole page) while loading; reset below
      setting("ALTER SYSTEM SET max_wal_size = '16GB'", "ALTER SYSTEM SET checkpoint_timeout = '30min'");
      long total = runsAndResults(productId, versionIds, sortKeys, machineIds, seriesIds);
      System.out.printf(Locale.ROOT, "copied %,d samples in %.1f s%n", total, (System.nanoTime() - start) / 1e9);
      start = System.nanoTime();
      try (var st = c.createStatement()) {
        st.execute("SET maintenance_work_mem = '1GB'");
        for (String index : rebuild) {
          st.execute(index);
        }
        System.out.printf(Locale.ROOT, "built %d indexes in %.1f s%n", rebuild.size(), (System.nanoTime() - start) / 1e9);
        st.execute("VACUUM ANALYZE");
      }
      setting("ALTER SYSTEM RESET max_wal_size", "ALTER SYSTEM RESET checkpoint_timeout");
      return total;
    }

    private void setting(String... statements) throws SQLException {
      boolean auto = c.getAutoCommit();
      c.setAutoCommit(true); // ALTER SYSTEM cannot run in a transaction
      try (var st = c.createStatement()) {
        for (String sql : statements) {
          st.execute(sql);
        }
        st.execute("SELECT pg_reload_conf()");
      } finally {
        c.setAutoCommit(auto);
      }
    }

    /**
     * Drops the indexes (primary keys included) of these tables and returns the statements that build them again
     * as they were.
     */
    private List<String> dropIndexes(String... tables) throws SQLException {
      List<String> drop = new ArrayList<>();
      List<String> build = new ArrayList<>();
      for (String table : tables) {
        try (var st = c.prepareStatement("""
            SELECT i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid), con.conname,
                   pg_get_constraintdef(con.oid)
            FROM pg_index i LEFT JOIN pg_constraint con ON con.conindid = i.indexrelid AND con.conrelid = i.indrelid
            WHERE i.indrelid = ?::regclass""")) {
          st.setString(1, table);
          try (var rs = st.executeQuery()) {
            while (rs.next()) {
              if (rs.getString(3) != null) {
                drop.add("ALTER TABLE " + table + " DROP CONSTRAINT " + rs.getString(3));
                build.add("ALTER TABLE " + table + " ADD CONSTRAINT " + rs.getString(3) + " " + rs.getString(4));
              } else {
                drop.add("DROP INDEX " + rs.getString(1));
                build.add(rs.getString(2));
              }
            }
          }
        }
      }
      try (var st = c.createStatement()) {
        for (String sql : drop) {
          st.execute(sql);
        }
      }
      return build;
    }

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
      return ids("SELECT id FROM machine WHERE name LIKE 'perf-m%' ORDER BY id"); // machine m+1 at m (perf-m100 < perf-m11)
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

    private long runsAndResults(long productId, List<Long> versionIds, List<String> sortKeys, List<Long> machineIds,
        long[][] seriesIds) throws SQLException, IOException {
      Random random = new Random(42);
      long total = 0;
      for (int m = 0; m < machineIds.size(); m++) {
        StringBuilder runs = new StringBuilder();
        int rows = (versionIds.size() - TAIL) * seriesIds[m].length;
        BinaryCopy results = new BinaryCopy(rows * (60 + 8 * samples));
        BinaryCopy points = new BinaryCopy(rows * 100);
        for (int v = 0; v < versionIds.size() - TAIL; v++) {
          UUID runId = UUID.nameUUIDFromBytes(("perf-" + m + "-" + v).getBytes());
          runs.append(runId).append('\t').append(productId).append('\t').append(versionIds.get(v)).append('\t')
              .append(machineIds.get(m)).append("\tposix\t{\"name\": \"perf-m").append(String.format("%02d", m + 1))
              .append("\"}\t{\"compiler\": \"gcc 4.").append(v % 9).append("\"}\t").append(runId).append('\t')
              .append(java.time.Instant.parse("2026-01-01T00:00:00Z").plusSeconds(60L * (v * 20L + m))).append('\n');
          for (int s = 0; s < seriesIds[m].length; s++) {
            double value = value(m, s, v, versions);
            Double[] x = new Double[samples];
            double[] xs = new double[samples];
            for (int i = 0; i < samples; i++) {
              xs[i] = value * (1 + random.nextGaussian() * 0.01);
              x[i] = xs[i];
            }
            // raw samples only, as the server stores them
            results.row(10).uuid(runId).int8(seriesIds[m][s]).int8(versionIds.get(v)).float8Array(List.of(x))
                .nul().nul().nul().nul().nul().nul();
            // the version's point, as detection writes it for a version's first run
            VersionLevel level = VersionLevel.of(xs);
            points.row(7).int8(seriesIds[m][s]).text(sortKeys.get(v)).int8(versionIds.get(v)).float8(level.level())
                .float8OrNull(level.withinSe()).bool(level.positive()).integer(level.count());
            total += samples;
          }
        }
        copy("COPY run (id, product_id, version_id, machine_id, suite, machine_snapshot, attributes, content_hash, received_at) FROM STDIN",
            runs);
        results.copyIn(c, "COPY result (run_id, series_id, version_id, samples, n, min, median, mean, max, stddev)"
            + " FROM STDIN (FORMAT binary)");
        points.copyIn(c, "COPY detection_point (series_id, sort_key, version_id, level, within_se, positive,"
            + " sample_count) FROM STDIN (FORMAT binary)");
        if ((m + 1) % 10 == 0) {
          System.out.printf(Locale.ROOT, "  %d of %d machines copied%n", m + 1, machineIds.size());
        }
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
