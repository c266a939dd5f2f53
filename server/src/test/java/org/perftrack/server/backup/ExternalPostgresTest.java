package org.perftrack.server.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.db.MigratedData;
import org.perftrack.server.regressions.StepFixtures;
import org.perftrack.server.support.DebianPostgres;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.ServerProcess;
import org.perftrack.wire.RunUpload;

/**
 * perftrack on a PostgreSQL server of its own (Debian's, started by the test): the move from the embedded database
 * with the README's three commands, and a hot standby ({@code pg_basebackup -R}) that pages read from while uploads
 * go to the primary. Every server and command is a real process.
 */
class ExternalPostgresTest {

  private static final String TOKEN = "external-token-0123456789";

  private static DebianPostgres primary;

  @TempDir
  Path tmp;

  @BeforeAll
  static void startPrimary() {
    primary = DebianPostgres.start();
  }

  @AfterAll
  static void stopPrimary() {
    if (primary != null) {
      primary.close();
    }
  }

  @Test
  void movesTheEmbeddedDatabaseToAnExternalServerWithBackupRestoreAndItsUrl() throws Exception {
    String product = unique("moved");
    Path data = MigratedData.copyTo(tmp.resolve("perftrack-data"));
    Path file = tmp.resolve("perftrack.backup");
    String before;
    try (ServerProcess embedded = ServerProcess.start(data, tmp.resolve("embedded.log"),
        "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.alerts.enabled=false")) {
      for (RunUpload run : StepFixtures.history(product, "xp-lab-01", "write-64b")) {
        assertThat(embedded.http().postJson("/api/v1/runs", json(run), TOKEN).status()).isEqualTo(201);
      }
      before = regressions(embedded.http(), product);
      assertThat(before).contains("\"version\":\"" + StepFixtures.STEP + "\"");

      Command backup = command(tmp, "backup", file.toString(), "--perftrack.embedded-db.dir=" + data);
      assertThat(backup.exit()).as(backup.output()).isZero();
      assertThat(backup.output()).contains("(open by the running server)");
    }

    primary.createDatabase("moved");
    String[] external = {"--spring.datasource.url=" + primary.jdbcUrl("moved"),
        "--spring.datasource.username=" + DebianPostgres.USER};
    Command restore = command(tmp, "restore", file.toString(), external[0], external[1]);
    assertThat(restore.exit()).as(restore.output()).isZero();
    Command again = command(tmp, "restore", file.toString(), external[0], external[1]);
    assertThat(again.exit()).as(again.output()).isEqualTo(1);
    assertThat(again.output()).contains("the database is not empty");

    List<String> args = new ArrayList<>(List.of(external));
    args.add("--perftrack.alerts.enabled=false");
    try (ServerProcess moved = ServerProcess.start(tmp.resolve("unused"), tmp.resolve("moved.log"),
        args.toArray(String[]::new))) {
      assertThat(regressions(moved.http(), product)).as("the same regressions, ids and triage")
          .isEqualTo(before);
      assertThat(moved.http().postJson("/api/v1/runs", json(Fixtures.run(product, "1.5.34-1", "xp-lab-01",
          Fixtures.result("fork", 75, 75.2, 74.9))), TOKEN).status()).as("the moved token uploads").isEqualTo(201);
    }
    assertThat(tmp.resolve("unused/postgresql.conf")).as("no embedded database was made").doesNotExist();
  }

  @Test
  void pagesReadTheReplicaWhileUploadsGoToThePrimary() throws Exception {
    primary.createDatabase("replicated");
    String product = unique("replica");
    try (DebianPostgres standby = primary.standby();
        ServerProcess server = ServerProcess.start(tmp.resolve("unused"), tmp.resolve("replica.log"),
            "--spring.datasource.url=" + primary.jdbcUrl("replicated"),
            "--spring.datasource.username=" + DebianPostgres.USER,
            "--perftrack.datasource.replica-url=" + standby.jdbcUrl("replicated"),
            "--perftrack.datasource.lag-warning=1s", "--perftrack.datasource.lag-check=200ms",
            "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.alerts.enabled=false")) {
      Http http = server.http();
      upload(http, product, "1.0");
      await().atMost(Duration.ofSeconds(60)).until(() -> versions(http, product).contains("1.0"));

      try (Connection c = standby.connect("replicated"); var s = c.createStatement()) {
        s.execute("SELECT pg_wal_replay_pause()");
      }
      List<Integer> statuses = new CopyOnWriteArrayList<>();
      Thread burst = new Thread(() -> {
        for (int i = 1; i <= 20; i++) {
          statuses.add(upload(http, product, "2." + i));
        }
      });
      burst.start();
      List<String> seen = new ArrayList<>();
      while (burst.isAlive()) {
        Http.Response page = http.page("/products/" + product);
        assertThat(page.status()).isEqualTo(200);
        seen.add(versions(http, product));
        burst.join(200);
      }
      assertThat(statuses).as("every upload answered by the primary").hasSize(20).allMatch(s -> s == 201);
      try (Connection c = primary.connect("replicated"); var s = c.createStatement();
          var rs = s.executeQuery("SELECT count(*) FROM run")) {
        rs.next();
        assertThat(rs.getInt(1)).as("runs on the primary").isEqualTo(21);
      }
      assertThat(seen).as("read during the burst, from the paused replica").isNotEmpty()
          .allMatch(v -> v.equals("[1.0]"));
      await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(http.page("/products/" + product).body())
          .contains("behind the primary"));
      assertThat(versions(http, product)).isEqualTo("[1.0]");

      try (Connection c = standby.connect("replicated"); var s = c.createStatement()) {
        s.execute("SELECT pg_wal_replay_resume()");
      }
      await().atMost(Duration.ofSeconds(60)).until(() -> versions(http, product).contains("2.20"));
      await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(http.page("/products/" + product).body())
          .doesNotContain("behind the primary"));

      // every page and read API answers from the read-only standby: none of them writes
      String run;
      try (Connection c = primary.connect("replicated"); var s = c.createStatement();
          var rs = s.executeQuery("SELECT id FROM run LIMIT 1")) {
        rs.next();
        run = rs.getString(1);
      }
      String series = "benchmark=write-64b&metric=time-per-op";
      for (String path : List.of("/", "/regressions", "/compare?product=" + product,
          "/compare.csv?product=" + product + "&base=1.0&head=2.20", "/products/" + product,
          "/products/" + product + "/series?" + series,
          "/products/" + product + "/series/chart?" + series, "/machines/m1", "/lab", "/runs/" + run,
          "/api/v1/runs/" + run, "/api/v1/runs/" + run + "/report?format=markdown",
          "/api/v1/regressions?product=" + product, "/api/v1/summaries", "/api/v1/products",
          "/api/v1/products/" + product + "/versions", "/api/v1/products/" + product + "/machines",
          "/api/v1/compare?product=" + product + "&machine=m1&base=1.0&head=2.20",
          "/api/v1/series?product=" + product + "&machine=m1&" + series)) {
        Http.Response r = http.getWithToken(path, TOKEN);
        assertThat(r.status()).as(path + ": " + r.body()).isEqualTo(200);
      }
    }
  }

  private static int upload(Http http, String product, String version) {
    return http.postJson("/api/v1/runs", json(Fixtures.run(product, version, "m1",
        Fixtures.result("write-64b", 18, 18.1, 17.9))), TOKEN).status();
  }

  /** The versions the read API shows for the product's one series, as "[1.0, 2.1]". */
  private static String versions(Http http, String product) {
    Http.Response r = http.getWithToken("/api/v1/series?product=" + product
        + "&machine=m1&benchmark=write-64b&metric=time-per-op", TOKEN);
    if (r.status() != 200) {
      return "(" + r.status() + ")";
    }
    List<String> out = new ArrayList<>();
    r.json().get("points").forEach(p -> out.add(p.get("version").asString()));
    return out.toString();
  }

  private static String regressions(Http http, String product) {
    Http.Response r = http.getWithToken("/api/v1/regressions?status=all&product=" + product, TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    return r.body();
  }

  record Command(int exit, String output) {}

  /** {@code java -jar perftrack-server.jar ARGS}, on the test's class path. */
  static Command command(Path dir, String... args) throws IOException, InterruptedException {
    Path log = Files.createTempFile(dir, "command-", ".log");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        "org.perftrack.server.PerftrackApplication"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(300, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("perftrack-server " + args[0] + " did not finish:\n" + Files.readString(log));
    }
    return new Command(p.exitValue(), Files.readString(log));
  }
}
