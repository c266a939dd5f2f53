package org.perftrack.server.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.perftrack.server.db.EmbeddedPostgresServer;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.server.security.Scope;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * A backup of the running server's database, taken while uploads continue, restored into an empty database: every
 * table holds exactly the rows it held at the backup's snapshot (fingerprints read in the backup's own transaction),
 * the sequences go on after the restored ids, and a database that is not empty is refused.
 */
class BackupRestoreTest extends IntegrationTest {

  @Autowired
  private DataSource dataSource;

  @Autowired
  private EmbeddedPostgresServer embedded;

  @Test
  void restoresEveryTableAsTheSnapshotHeldItWhileUploadsContinue() throws Exception {
    Map<String, String> tablesWithData = makeDataInEveryFeature();
    AtomicBoolean uploading = new AtomicBoolean(true);
    List<Integer> statuses = new CopyOnWriteArrayList<>();
    Thread uploads = new Thread(() -> {
      String product = unique("during-backup");
      for (int i = 0; uploading.get() && i < 200; i++) {
        statuses.add(http().postJson("/api/v1/runs", json(Fixtures.run(product, "1." + i, "m",
            Fixtures.result("write-64b", 18, 18.1, 17.9))), TOKEN).status());
      }
    });
    uploads.start();

    Map<String, String> atSnapshot;
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    Backup.Written written;
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      atSnapshot = fingerprints(c);
      written = Backup.writeInTransaction(c, file);
      c.commit();
    } finally {
      uploading.set(false);
      uploads.join();
    }
    assertThat(statuses).as("uploads during the backup").isNotEmpty().allMatch(s -> s == 201);
    assertThat(written.rows().keySet()).containsExactlyInAnyOrderElementsOf(atSnapshot.keySet());
    tablesWithData.forEach((table, why) -> assertThat(written.rows().get(table)).as(table + ": " + why).isPositive());

    String db = unique("restored").replace('-', '_').toLowerCase();
    jdbc.sql("CREATE DATABASE " + db).update();
    try {
      DataSource target = new SimpleDriverDataSource(new org.postgresql.Driver(),
          embedded.jdbcUrl().replace("/postgres", "/" + db), embedded.username(), embedded.password());
      Restore.Restored restored = Restore.restore(target, new ByteArrayInputStream(file.toByteArray()));
      assertThat(restored.rows()).isEqualTo(written.rows());
      try (Connection c = target.getConnection()) {
        assertThat(fingerprints(c)).as("every table, row for row").isEqualTo(atSnapshot);
        assertSequencesAfterTheirIds(c);
      }

      assertThatThrownBy(() -> Restore.restore(target, new ByteArrayInputStream(file.toByteArray())))
          .isInstanceOf(Restore.Refused.class).hasMessageContaining("not empty");
    } finally {
      jdbc.sql("DROP DATABASE " + db + " WITH (FORCE)").update();
    }
  }

  @Test
  void sequencesGoOnAfterTheRestoredIdsWhenTheBackupCouldNotReadThem() throws Exception {
    makeDataInEveryFeature();
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    try (Connection c = dataSource.getConnection()) {
      Backup.write(c, file);
    }
    byte[] withoutSequences = withoutSequenceValues(file.toByteArray());
    String db = unique("restored").replace('-', '_').toLowerCase();
    jdbc.sql("CREATE DATABASE " + db).update();
    try {
      DataSource target = new SimpleDriverDataSource(new org.postgresql.Driver(),
          embedded.jdbcUrl().replace("/postgres", "/" + db), embedded.username(), embedded.password());
      Restore.restore(target, new ByteArrayInputStream(withoutSequences));
      try (Connection c = target.getConnection()) {
        assertSequencesAfterTheirIds(c);
      }
    } finally {
      jdbc.sql("DROP DATABASE " + db + " WITH (FORCE)").update();
    }
  }

  /** The backup as a role without the right to read sequences makes it: every sequence without a value. */
  private static byte[] withoutSequenceValues(byte[] backup) throws java.io.IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (var in = new java.util.zip.ZipInputStream(new ByteArrayInputStream(backup));
        var zip = new java.util.zip.ZipOutputStream(out)) {
      for (var e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        byte[] bytes = in.readAllBytes();
        if (e.getName().equals(Manifest.ENTRY)) {
          Manifest m = Backup.JSON.readValue(bytes, Manifest.class);
          bytes = Backup.JSON.writeValueAsBytes(new Manifest(m.format(), m.takenAt(), m.migrations(), m.tables(),
              m.sequences().stream().map(s -> new Catalog.Sequence(s.name(), s.start(), null)).toList()));
        }
        zip.putNextEntry(new java.util.zip.ZipEntry(e.getName()));
        zip.write(bytes);
        zip.closeEntry();
      }
    }
    return out.toByteArray();
  }

  @Test
  void refusesAFileThatIsNotABackup() {
    assertThatThrownBy(() -> Restore.restore(dataSource, new ByteArrayInputStream("runs,samples\n".getBytes())))
        .isInstanceOf(Restore.Refused.class).hasMessageContaining("not a perftrack backup");
  }

  /** Uploads with a regression, its triage, a summary, mail, a token and a lab agent; the tables they fill. */
  private Map<String, String> makeDataInEveryFeature() {
    String product = unique("backup");
    for (RunUpload run : StepFixtures.history(product, "xp-lab-01", "write-64b")) {
      assertThat(http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
    }
    long regression = jdbc.sql("""
        SELECT g.id FROM regression g JOIN series s ON s.id = g.series_id JOIN product p ON p.id = s.product_id
        WHERE p.name = ? LIMIT 1""").param(product).query(Long.class).single();
    assertThat(http().patchJson("/api/v1/regressions/" + regression,
        "{\"status\": \"acknowledged\", \"note\": \"the antivirus changed\"}", ADMIN_TOKEN).status()).isEqualTo(200);
    token(Scope.READ);
    assertThat(http().postJson("/api/v1/lab/agents", "{\"product\": \"" + product
        + "\", \"machine\": \"lab-01\", \"agentVersion\": \"test\", \"heartbeatSeconds\": 60, \"targets\": [\"1.0\"]}",
        TOKEN).status()).isEqualTo(200);
    Map<String, String> tables = new TreeMap<>();
    for (String t : List.of("product", "machine", "version", "series", "run", "result", "detection_point")) {
      tables.put(t, "runs and samples");
    }
    tables.put("regression", "a regression");
    tables.put("regression_event", "its triage");
    tables.put("summary", "a summary");
    tables.put("alert_outbox", "mail state");
    tables.put("api_token", "tokens");
    tables.put("app_user", "users");
    tables.put("lab_agent", "lab state");
    return tables;
  }

  /** Per table: its row count and a hash of its rows in a fixed order. */
  static Map<String, String> fingerprints(Connection c) {
    JdbcClient jdbc = JdbcClient.create(new SingleConnectionDataSource(c, true));
    Map<String, String> out = new TreeMap<>();
    for (String t : jdbc.sql(Catalog.TABLES).param(Catalog.FLYWAY_HISTORY).query(String.class).list()) {
      out.put(t, jdbc.sql("SELECT count(*) || ' ' || coalesce(md5(string_agg(h, '' ORDER BY h)), '')"
          + " FROM (SELECT md5(x::text) AS h FROM " + Catalog.quote(t) + " x) r").query(String.class).single());
    }
    return out;
  }

  /** An identity column's next value is above every restored id. */
  private static void assertSequencesAfterTheirIds(Connection c) {
    JdbcClient jdbc = JdbcClient.create(new SingleConnectionDataSource(c, true));
    List<String> checked = new ArrayList<>();
    jdbc.sql("""
        SELECT c.relname, a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
        WHERE c.relnamespace = current_schema()::regnamespace AND a.attidentity <> '' AND c.relkind = 'r'""")
        .query((rs, i) -> List.of(rs.getString(1), rs.getString(2))).list().forEach(tc -> {
          Long max = jdbc.sql("SELECT max(" + Catalog.quote(tc.get(1)) + ") FROM " + Catalog.quote(tc.get(0)))
              .query(Long.class).optional().orElse(null);
          if (max != null) {
            Long last = jdbc.sql("SELECT last_value FROM pg_sequences WHERE schemaname = current_schema() "
                + "AND sequencename = split_part(pg_get_serial_sequence(?, ?), '.', 2)").params(
                Catalog.quote(tc.get(0)), tc.get(1)).query(Long.class).list().get(0);
            assertThat(last).as(tc.get(0) + "." + tc.get(1) + ": the last value its sequence gave").isNotNull()
                .isGreaterThanOrEqualTo(max);
            checked.add(tc.get(0));
          }
        });
    assertThat(checked).contains("regression", "api_token");
  }
}
