package org.perftrack.server.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts the whole server twice on one data directory, as a user restarting it would. */
class RestartTest {

  @TempDir
  Path dir;

  @Test
  void dataSurvivesARestartOnTheSameDataDirectory() {
    Path data = MigratedData.copyTo(dir.resolve("perftrack-data"));
    String token = "restart-token-42";
    var run = run("cygwin", "1.5.24-2", "xp-lab-01", result("write-64b", 48.2, 47.9, 48.4));
    String seriesPath = "/api/v1/series?product=cygwin&machine=xp-lab-01&benchmark=write-64b&metric=time-per-op";

    try (ConfigurableApplicationContext first = start(data, token, true)) {
      Http http = http(first);
      assertThat(http.get("/").body()).contains("No results yet");
      assertThat(http.postJson("/api/v1/runs", json(run), token).status()).isEqualTo(201);
      assertThat(http.get("/").body()).contains("xp-lab-01").doesNotContain("No results yet");
    }
    assertThat(Files.isRegularFile(data.resolve("PG_VERSION"))).isTrue();

    try (ConfigurableApplicationContext second = start(data, token, false)) {
      Http http = http(second);
      assertThat(http.get(seriesPath).status()).as("public-read=false needs a token").isEqualTo(401);
      Http.Response r = http.getWithToken(seriesPath, token);
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.json().get("points").get(0).get("n").asInt()).isEqualTo(3);
      assertThat(http.postJson("/api/v1/runs", json(run), token).status()).as("still known after restart")
          .isEqualTo(200);
    }
  }

  private static ConfigurableApplicationContext start(Path data, String token, boolean publicRead) {
    return new SpringApplicationBuilder(PerftrackApplication.class).run(
        "--server.port=0", "--perftrack.embedded-db.dir=" + data, "--perftrack.bootstrap-token=" + token,
        "--perftrack.admin.password=pw", "--perftrack.security.public-read=" + publicRead,
        "--perftrack.alerts.enabled=false");
  }

  private static Http http(ConfigurableApplicationContext ctx) {
    int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
    return new Http("http://localhost:" + port);
  }
}
