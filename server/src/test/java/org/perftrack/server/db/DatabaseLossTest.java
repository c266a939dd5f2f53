package org.perftrack.server.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Issue 12 item 11: the database goes away under a running server. Health says DOWN with 503 within
 * seconds, and uploads succeed again without restarting the server: the embedded PostgreSQL is
 * started again by the server, an external one is reconnected to when it is back.
 */
class DatabaseLossTest {

  static final String TOKEN = "loss-token-0123456789";

  @TempDir
  Path dir;

  @Test
  void theServerStartsItsEmbeddedDatabaseAgainAfterThePostmasterIsKilled() {
    Path data = MigratedData.copyTo(dir.resolve("data"));
    try (ConfigurableApplicationContext ctx = start("--perftrack.embedded-db.dir=" + data)) {
      Http http = http(ctx);
      assertThat(upload(http)).isEqualTo(201);
      EmbeddedPostgresServer db = ctx.getBean(EmbeddedPostgresServer.class);
      ProcessHandle killed = db.postmaster();
      killed.destroyForcibly();

      await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).until(() -> upload(http) == 201);
      assertThat(db.postmaster().pid()).isNotEqualTo(killed.pid());
      assertThat(http.get("/actuator/health").status()).isEqualTo(200);
    }
  }

  @Test
  void healthIsDownWith503WhileAnExternalDatabaseIsAwayAndUploadsWorkWhenItIsBack() throws IOException {
    Path data = dir.resolve("external");
    int port = IntegrationTest.freePort();
    EmbeddedPostgres external = external(data, port);
    try (ConfigurableApplicationContext ctx = start("--spring.datasource.url=jdbc:postgresql://127.0.0.1:" + port + "/postgres",
        "--spring.datasource.username=postgres")) {
      Http http = http(ctx);
      assertThat(upload(http)).isEqualTo(201);

      external.close();
      long t0 = System.nanoTime();
      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
          .until(() -> http.get("/actuator/health").status() == 503);
      System.out.printf("DatabaseLossTest: health said 503 %d ms after the database stopped%n",
          (System.nanoTime() - t0) / 1_000_000);
      Http.Response refused = http.postJson("/api/v1/runs", json(run("cygwin", "2.0", "loss-box", result("fork", 1, 2, 3))), TOKEN);
      assertThat(refused.status()).as(refused.body()).isEqualTo(503);

      external = external(data, port);
      await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).until(() -> upload(http) == 201);
      assertThat(http.get("/actuator/health").status()).isEqualTo(200);
    } finally {
      external.close();
    }
  }

  private static int upload(Http http) {
    try {
      return http.postJson("/api/v1/runs", json(run("cygwin", "1.5.24-2", "loss-box", result("write-64b", 48.2, 47.9, 48.4))),
          TOKEN).status();
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** A PostgreSQL the server did not start, as an operator's would be. */
  private static EmbeddedPostgres external(Path data, int port) throws IOException {
    return EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false).setPort(port).start();
  }

  private static ConfigurableApplicationContext start(String... db) {
    String[] common = {"--server.port=0", "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.admin.password=pw"};
    String[] args = java.util.stream.Stream.concat(java.util.Arrays.stream(common), java.util.Arrays.stream(db))
        .toArray(String[]::new);
    return new SpringApplicationBuilder(PerftrackApplication.class).run(args);
  }

  private static Http http(ConfigurableApplicationContext ctx) {
    return new Http("http://localhost:" + ((WebServerApplicationContext) ctx).getWebServer().getPort());
  }
}
