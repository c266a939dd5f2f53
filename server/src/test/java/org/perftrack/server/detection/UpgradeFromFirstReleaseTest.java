package org.perftrack.server.detection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.db.Json;
import org.perftrack.server.db.FirstReleaseMigrations;
import org.perftrack.wire.VersionKey;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A database of the first release (migrations V1, V10, V11, V20), with data, migrates to HEAD and
 * its data stays intact and readable. Also the data directory that has V20 but not V11 (V11 landed
 * later): the server fills in V11, and only migrations up to V20 ever run out of order. Checks invariants, not a fixed schema, so that later
 * migrations keep it green.
 */
class UpgradeFromFirstReleaseTest {

  static final List<String> FIRST_RELEASE = List.of("V1__create_schema.sql", "V10__create_regression.sql",
      "V11__add_count_to_detection_point.sql", "V20__create_alerts.sql");
  static final List<String> TABLES = List.of("product", "machine", "version", "series", "run", "result",
      "detection_point", "regression", "alert_subscription", "alert_regression", "alert_outbox");

  static EmbeddedPostgres postgres;

  @BeforeAll
  static void start() throws IOException {
    postgres = EmbeddedPostgres.builder().start();
  }

  @AfterAll
  static void stop() throws IOException {
    postgres.close();
  }

  @Test
  void aDatabaseOfTheFirstReleaseWithDataMigratesToHeadAndReadsBack() {
    String db = database("first_release");
    flyway(db, "classpath:db/migration").target("20").load().migrate();
    assertThat(applied(db)).containsExactly("1", "10", "11", "20");
    upgradesWithDataIntact(db);
  }

  @Test
  void aDataDirectoryAtV20WithoutV11StillMigrates(@TempDir Path dir) throws IOException {
    String db = database("without_v11");
    for (String file : List.of("V1__create_schema.sql", "V10__create_regression.sql", "V20__create_alerts.sql")) {
      try (InputStream in = getClass().getResourceAsStream("/db/migration/" + file)) {
        Files.copy(in, dir.resolve(file));
      }
    }
    flyway(db, "filesystem:" + dir).load().migrate();
    assertThat(applied(db)).containsExactly("1", "10", "20");
    upgradesWithDataIntact(db);
    assertThat(applied(db)).contains("11");
  }

  @Test
  void aMigrationAfterTheFirstReleaseMissingBelowAnAppliedOneStopsTheMigration(@TempDir Path dir) throws IOException {
    String db = database("without_v21");
    List<String> files = new java.util.ArrayList<>(FIRST_RELEASE);
    files.add("V22__create_summary.sql");
    for (String file : files) {
      try (InputStream in = getClass().getResourceAsStream("/db/migration/" + file)) {
        Files.copy(in, dir.resolve(file));
      }
    }
    flyway(db, "filesystem:" + dir).load().migrate();

    assertThatThrownBy(() -> new FirstReleaseMigrations().migrate(flyway(db, "classpath:db/migration").load()))
        .as("out of order only up to V20").hasMessageContaining("21");
    assertThat(applied(db)).containsExactly("1", "10", "11", "20", "22");
  }

  @Test
  void aResultWithRawSamplesKeepsOnlyThemAndReadsTheSameFiguresWhileASummaryOnlyResultKeepsItsStatistics() {
    String db = database("before_v38");
    flyway(db, "classpath:db/migration").target("37").load().migrate();
    JdbcClient jdbc = JdbcClient.create(postgres.getDatabase("postgres", db));
    insertFirstReleaseData(jdbc);
    jdbc.sql("""
        UPDATE result SET samples = '{}', n = 12, min = 16.0, median = 17.0, mean = 17.25, max = 19.5, stddev = 0.75
         WHERE run_id = '00000000-0000-0000-0000-000000000001'
           AND series_id = (SELECT id FROM series WHERE metric = 'time-per-op')""").update(); // a summary-only result
    jdbc.sql("UPDATE result SET mean = (SELECT sum(u) FROM unnest(samples) AS u) / cardinality(samples)"
        + " WHERE cardinality(samples) > 0").update(); // as the server computed it
    List<Map<String, Object>> before = jdbc.sql(STORED).query().listOfRows();
    long bytesBefore = jdbc.sql("SELECT pg_relation_size('result')").query(Long.class).single();

    flyway(db, "classpath:db/migration").load().migrate();

    List<Map<String, Object>> after = jdbc.sql(STORED).query().listOfRows();
    assertThat(after).hasSameSizeAs(before).hasSize(4);
    for (int i = 0; i < before.size(); i++) {
      Map<String, Object> was = before.get(i);
      Map<String, Object> is = after.get(i);
      assertThat(is.get("samples")).isEqualTo(was.get("samples"));
      if (((Integer) was.get("cardinality")) == 0) {
        assertThat(is).as("a summary-only result keeps what its tool wrote").isEqualTo(was);
        continue;
      }
      assertThat(java.util.Arrays.asList(is.get("n"), is.get("min"), is.get("median"), is.get("mean"), is.get("max")))
          .as("derivable columns of a raw result are no longer stored").containsOnlyNulls();
      double[] samples = jdbc.sql("SELECT unnest(samples) FROM result WHERE run_id = ?::uuid AND series_id = ?")
          .params(is.get("run_id").toString(), is.get("series_id")).query(Double.class).list().stream()
          .mapToDouble(Double::doubleValue).toArray();
      org.perftrack.server.stats.SampleStats derived = org.perftrack.server.stats.SampleStats.of(samples);
      assertThat(derived.n()).isEqualTo(was.get("n"));
      assertThat(derived.min()).isEqualTo(was.get("min"));
      assertThat(derived.median()).isEqualTo(was.get("median"));
      assertThat(derived.mean()).isCloseTo((Double) was.get("mean"), org.assertj.core.data.Offset.offset(1e-12));
      assertThat(derived.max()).isEqualTo(was.get("max"));
    }
    assertThat(jdbc.sql("SELECT pg_relation_size('result')").query(Long.class).single())
        .as("rewritten, not updated in place").isLessThanOrEqualTo(bytesBefore);
    assertThat(jdbc.sql("SELECT count(*) FROM result WHERE n IS NULL AND cardinality(samples) = 0")
        .query(Long.class).single()).isZero();
  }

  @Test
  void versionsNamedLikeGitTagsTakeTheirPlaceBesideThePlainNamesWithEveryStoredCopyOfTheirKey() {
    String db = database("before_v46");
    flyway(db, "classpath:db/migration").target("45").load().migrate();
    JdbcClient jdbc = JdbcClient.create(postgres.getDatabase("postgres", db));
    List<String> names = List.of("1.0", "v1.0.4", "1.0.5", "v1.0.9", "V1.0.10", "version", "v.2");
    jdbc.sql("INSERT INTO product (name) VALUES ('tags')").update();
    jdbc.sql("INSERT INTO machine (name) VALUES ('m1')").update();
    for (String name : names) { // keyed as the server wrote them before: "v" was a word
      String key = name.matches("[vV][0-9].*") ? "3v!" + VersionKey.of(name) : VersionKey.of(name);
      jdbc.sql("INSERT INTO version (product_id, name, sort_key) SELECT id, ?, ? FROM product").params(name, key)
          .update();
    }
    assertThat(jdbc.sql("SELECT name FROM version ORDER BY sort_key").query(String.class).list())
        .as("before: the tags scatter below every plain number")
        .containsExactly("v1.0.4", "v1.0.9", "V1.0.10", "v.2", "version", "1.0", "1.0.5");
    jdbc.sql("""
        INSERT INTO series (product_id, machine_id, benchmark, metric, unit, direction)
        SELECT p.id, m.id, 'write-64b', 'time-per-op', 'us', 'lower_is_better' FROM product p, machine m""").update();
    jdbc.sql("""
        INSERT INTO detection_point (series_id, sort_key, version_id, level, within_se, positive, sample_count)
        SELECT s.id, v.sort_key, v.id, 1.0, NULL, true, 5 FROM series s, version v""").update();
    jdbc.sql("""
        INSERT INTO chart_summary (series_id, level, first_key, next_key, n, median, lo, hi, first_point, last_point)
        SELECT s.id, 0, min(v.sort_key), max(v.sort_key), 2, 1.0, 1.0, 1.0, min(v.sort_key), min(v.sort_key)
          FROM series s, version v GROUP BY s.id""").update();
    jdbc.sql("""
        INSERT INTO alert_regression (regression_id, run_id, product, machine, benchmark, metric, baseline_key,
                                      version_key, announced, item)
        VALUES (1, gen_random_uuid(), 'tags', 'm1', 'write-64b', 'time-per-op', ?, ?, true, '{}')""")
        .params("3v!" + VersionKey.of("v1.0.4"), VersionKey.of("1.0.5")).update();
    jdbc.sql("""
        INSERT INTO alert_regression (regression_id, run_id, product, machine, benchmark, metric, baseline_key,
                                      version_key, announced, item)
        VALUES (2, gen_random_uuid(), 'tags', 'm1', 'write-64b', 'time-per-op', ?, ?, true, '{}')""")
        .params(VersionKey.of("v.2"), "3v!" + VersionKey.of("v1.0.9")).update();

    flyway(db, "classpath:db/migration").load().migrate();

    assertThat(jdbc.sql("SELECT name FROM version ORDER BY sort_key").query(String.class).list())
        .containsExactly("v.2", "version", "1.0", "v1.0.4", "1.0.5", "v1.0.9", "V1.0.10");
    for (Map<String, Object> v : jdbc.sql("SELECT name, sort_key FROM version").query().listOfRows()) {
      assertThat(v.get("sort_key")).as("%s is keyed as the server keys it now", v.get("name"))
          .isEqualTo(VersionKey.of((String) v.get("name")));
    }
    assertThat(jdbc.sql("""
        SELECT count(*) FROM detection_point d JOIN version v ON v.id = d.version_id WHERE d.sort_key <> v.sort_key""")
        .query(Long.class).single()).isZero();
    assertThat(jdbc.sql("SELECT count(*) FROM detection_point").query(Long.class).single()).isEqualTo(names.size());
    assertThat(jdbc.sql("SELECT level || ' ' || sort_key FROM chart_boundary ORDER BY 1").query(String.class).list())
        .as("the boundaries the new keys start, and no others")
        .isEqualTo(jdbc.sql("""
            SELECT l.level || ' ' || v.sort_key FROM version v
            CROSS JOIN LATERAL generate_series(0, chart_block_levels(v.sort_key) - 1) AS l(level) ORDER BY 1""")
            .query(String.class).list());
    assertThat(jdbc.sql("SELECT count(*) FROM chart_summary").query(Long.class).single()).isZero();
    assertThat(jdbc.sql("SELECT baseline_key || ' | ' || version_key FROM alert_regression ORDER BY regression_id")
        .query(String.class).list()).containsExactly(
            VersionKey.of("v1.0.4") + " | " + VersionKey.of("1.0.5"),
            VersionKey.of("v.2") + " | " + VersionKey.of("v1.0.9"));
  }

  static final String STORED = """
      SELECT run_id, series_id, samples::text AS samples, cardinality(samples), n, min, median, mean, max, stddev
        FROM result ORDER BY run_id, series_id""";

  private void upgradesWithDataIntact(String db) {
    JdbcClient jdbc = JdbcClient.create(postgres.getDatabase("postgres", db));
    insertFirstReleaseData(jdbc);
    Map<String, Long> before = counts(jdbc);
    List<Double> samplesBefore = jdbc.sql("SELECT unnest(samples) FROM result ORDER BY run_id, series_id")
        .query(Double.class).list();

    new FirstReleaseMigrations().migrate(flyway(db, "classpath:db/migration").load());

    assertThat(jdbc.sql("SELECT count(*) FROM flyway_schema_history WHERE NOT success").query(Long.class).single())
        .isZero();
    assertThat(applied(db)).containsAll(List.of("1", "10", "11", "20"));
    assertThat(counts(jdbc)).as("no row lost or duplicated").isEqualTo(before);
    assertThat(jdbc.sql("SELECT version_count FROM product").query(Long.class).single())
        .as("the count of versions starts right").isEqualTo(2);
    assertThat(jdbc.sql("SELECT count(*) FROM chart_boundary").query(Long.class).single())
        .as("every old version starts the chart blocks its sort key says")
        .isEqualTo(jdbc.sql("SELECT sum(chart_block_levels(sort_key)) FROM version").query(Long.class).single());
    assertThat(jdbc.sql("SELECT unnest(samples) FROM result ORDER BY run_id, series_id").query(Double.class).list())
        .isEqualTo(samplesBefore);

    long id = jdbc.sql("SELECT id FROM regression").query(Long.class).single();
    Regression r = new Regressions(jdbc, new org.perftrack.server.audit.Audit(jdbc)).find(id).orElseThrow();
    assertThat(r.product()).isEqualTo("cygwin");
    assertThat(r.machine()).isEqualTo("xp-lab-01");
    assertThat(r.benchmark()).isEqualTo("write-64b");
    assertThat(r.direction()).isEqualTo(Direction.LOWER_IS_BETTER);
    assertThat(r.kind()).isEqualTo(Regression.Kind.REGRESSION);
    assertThat(r.status()).isEqualTo(Regression.Status.OPEN);
    assertThat(r.baselineVersion()).isEqualTo("1.5.19-4");
    assertThat(r.version()).isEqualTo("1.5.24-2");
    assertThat(r.ratio()).isEqualTo(48.0 / 18.0);
    assertThat(r.hints()).containsExactly(new Regression.Hint("ctx-switches-per-op", "count", 0.004, 1.6, 400.0));
    assertThat(new Regressions(jdbc, new org.perftrack.server.audit.Audit(jdbc)).list("cygwin", null, Regression.Status.VISIBLE, Regression.Kind.REGRESSION, 10))
        .extracting(Regression::id).containsExactly(id);

    // what the first release's alerts stored (AlertItem JSON) still reads as a regression
    String item = jdbc.sql("SELECT item::text FROM alert_regression").query(String.class).single();
    Regression announced = Json.MAPPER.readValue(item, Regression.class);
    assertThat(announced.id()).isEqualTo(id);
    assertThat(announced.direction()).isEqualTo(Direction.LOWER_IS_BETTER);
    assertThat(announced.hints()).extracting(Regression.Hint::metric).containsExactly("ctx-switches-per-op");
    assertThat(jdbc.sql("SELECT status FROM alert_outbox").query(String.class).single()).isEqualTo("pending");
  }

  /** Data as the first release wrote it: one run of two versions each, a regression, its announcement and mail. */
  private static void insertFirstReleaseData(JdbcClient jdbc) {
    jdbc.sql("INSERT INTO product (name) VALUES ('cygwin')").update();
    jdbc.sql("""
        INSERT INTO machine (name, os, cpu, cores, memory_mb, attributes)
        VALUES ('xp-lab-01', 'Windows XP SP3', 'Core 2 Duo', 2, 2048, '{"disk": "ntfs"}')""").update();
    jdbc.sql("""
        INSERT INTO version (product_id, name, sort_key)
        SELECT p.id, v.name, v.sort_key FROM product p,
               (VALUES ('1.5.19-4', '0000000001.0000000005.0000000019-0000000004'),
                       ('1.5.24-2', '0000000001.0000000005.0000000024-0000000002')) AS v(name, sort_key)""").update();
    jdbc.sql("""
        INSERT INTO series (product_id, machine_id, benchmark, metric, unit, direction)
        SELECT p.id, m.id, s.benchmark, s.metric, s.unit, 'lower_is_better' FROM product p, machine m,
               (VALUES ('write-64b', 'time-per-op', 'us'), ('write-64b', 'ctx-switches-per-op', 'count')) AS s(benchmark, metric, unit)""")
        .update();
    jdbc.sql("""
        INSERT INTO run (id, product_id, version_id, machine_id, suite, started_at, machine_snapshot, content_hash)
        SELECT r.id::uuid, p.id, v.id, m.id, 'cygperf', now(), '{"os": "Windows XP SP3"}', r.hash
          FROM product p, machine m, version v,
               (VALUES ('00000000-0000-0000-0000-000000000001', '1.5.19-4', 'h1'),
                       ('00000000-0000-0000-0000-000000000002', '1.5.24-2', 'h2')) AS r(id, version, hash)
         WHERE v.name = r.version""").update();
    jdbc.sql("""
        INSERT INTO result (run_id, series_id, version_id, samples, n, min, median, mean, max)
        SELECT ru.id, s.id, ru.version_id, x.samples, cardinality(x.samples), x.samples[1], x.samples[2],
               (x.samples[1] + x.samples[2] + x.samples[3]) / 3, x.samples[3]
          FROM run ru JOIN version v ON v.id = ru.version_id JOIN series s ON true
          JOIN (VALUES ('1.5.19-4', 'time-per-op', ARRAY[17.5, 18.0, 18.5]),
                       ('1.5.24-2', 'time-per-op', ARRAY[47.5, 48.0, 48.5]),
                       ('1.5.19-4', 'ctx-switches-per-op', ARRAY[0.003, 0.004, 0.005]),
                       ('1.5.24-2', 'ctx-switches-per-op', ARRAY[1.5, 1.6, 1.7])) AS x(version, metric, samples)
            ON x.version = v.name AND x.metric = s.metric""").update();
    jdbc.sql("""
        INSERT INTO detection_point (series_id, sort_key, version_id, level, within_se, positive)
        SELECT r.series_id, v.sort_key, v.id, r.median, NULL, true FROM result r JOIN version v ON v.id = r.version_id""")
        .update();
    jdbc.sql("""
        INSERT INTO regression (series_id, baseline_version_id, version_id, kind, baseline_value, value, ratio, p_value,
                                hints, created_by_run)
        SELECT s.id, bv.id, v.id, 'regression', 18.0, 48.0, 48.0 / 18.0, 0.0004,
               '[{"metric": "ctx-switches-per-op", "unit": "count", "baselineValue": 0.004, "value": 1.6, "ratio": 400.0}]',
               '00000000-0000-0000-0000-000000000002'
          FROM series s, version bv, version v
         WHERE s.metric = 'time-per-op' AND bv.name = '1.5.19-4' AND v.name = '1.5.24-2'""").update();
    jdbc.sql("""
        INSERT INTO alert_subscription (email, source, unsubscribe_token)
        VALUES ('team@example.org', 'config', 'token-1')""").update();
    String alertItem = """
        {"regressionId": %d, "product": "cygwin", "machine": "xp-lab-01", "benchmark": "write-64b",
         "metric": "time-per-op", "unit": "us", "direction": "lower_is_better", "baselineVersion": "1.5.19-4",
         "version": "1.5.24-2", "baselineValue": 18.0, "value": 48.0, "ratio": 2.6666666666666665,
         "pValue": 0.0004, "changePercent": 166.7,
         "hints": [{"metric": "ctx-switches-per-op", "unit": "count", "baselineValue": 0.004, "value": 1.6,
                    "ratio": 400.0}]}""".formatted(jdbc.sql("SELECT id FROM regression").query(Long.class).single());
    jdbc.sql("""
        INSERT INTO alert_regression (regression_id, run_id, product, machine, benchmark, metric, baseline_key,
                                      version_key, announced, item)
        SELECT id, created_by_run, 'cygwin', 'xp-lab-01', 'write-64b', 'time-per-op', 'a', 'b', true, CAST(? AS jsonb)
          FROM regression""").param(alertItem).update();
    jdbc.sql("""
        INSERT INTO alert_outbox (kind, dedup_key, recipient, subscription_id, subject, payload, message_id)
        SELECT 'run', '00000000-0000-0000-0000-000000000002', 'team@example.org', s.id,
               '[perftrack] cygwin 1.5.24-2 on xp-lab-01: 1 regression (write-64b ×2.67)',
               CAST(? AS jsonb), '<1@perftrack>' FROM alert_subscription s""")
        .param("{\"kind\": \"run\", \"items\": [" + alertItem + "], \"unsubscribeToken\": \"token-1\"}").update();
  }

  private static Map<String, Long> counts(JdbcClient jdbc) {
    Map<String, Long> counts = new TreeMap<>();
    for (String table : TABLES) {
      counts.put(table, jdbc.sql("SELECT count(*) FROM " + table).query(Long.class).single());
    }
    assertThat(counts.values()).as("every table has data").allMatch(n -> n > 0);
    return counts;
  }

  private List<String> applied(String db) {
    return JdbcClient.create(postgres.getDatabase("postgres", db))
        .sql("SELECT version FROM flyway_schema_history WHERE version IS NOT NULL ORDER BY installed_rank")
        .query(String.class).list();
  }

  private static org.flywaydb.core.api.configuration.FluentConfiguration flyway(String db, String location) {
    return Flyway.configure().dataSource(postgres.getDatabase("postgres", db)).locations(location);
  }

  private static String database(String name) {
    JdbcClient.create(postgres.getPostgresDatabase()).sql("CREATE DATABASE " + name).update();
    return name;
  }
}
