package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.db.MigratedData;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.ServerProcess;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/**
 * A session's runs stored while waiting for the rest of the session are not lost to a killed server: the server
 * started again judges them once the settle time has passed, as if no run of the session came after them.
 */
class SessionRestartTest {

  static final String TOKEN = "session-restart-token-0123456789";

  @TempDir
  Path dir;

  private final Random random = new Random(3);

  private String run(String version, String batch, Integer size, double level) {
    RunUpload r = Fixtures.run("restarted", version, "lab-1", new RunUpload.ResultUpload("write-64b", "time-per-op",
        "us", RunUpload.LOWER_IS_BETTER, Fixtures.sessionSamples(random, level)));
    return Fixtures.json(new RunUpload(r.id(), r.product(), r.version(), r.machine(), r.suite(), batch, null, null,
        r.attributes(), r.results(), r.failures(), null, null, size));
  }

  private static JsonNode regressions(Http http) {
    return http.getWithToken("/api/v1/regressions?status=all&product=restarted", TOKEN).json();
  }

  @Test
  void aSessionLeftWaitingByAKilledServerIsJudgedWhenItStartsAgain() throws Exception {
    Path data = MigratedData.copyTo(dir.resolve("perftrack-data"));
    String batch = UUID.randomUUID().toString();
    try (ServerProcess first = ServerProcess.start(data, dir.resolve("first.log"),
        "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.detection.batch-settle=1h")) {
      Http http = first.http();
      for (int v = 1; v <= 6; v++) {
        assertThat(http.postJson("/api/v1/runs", run("1.6." + v, null, null, 40), TOKEN).status()).isEqualTo(201);
      }
      for (String version : List.of("1.7.5", "1.7.2")) {
        Http.Response r = http.postJson("/api/v1/runs", run(version, batch, 3, 80), TOKEN);
        assertThat(r.json().get("session").get("judged").asBoolean()).as(r.body()).isFalse();
      }
      assertThat(regressions(http)).isEmpty();
      first.kill();
    }

    try (ServerProcess second = ServerProcess.start(data, dir.resolve("second.log"),
        "--perftrack.bootstrap-token=" + TOKEN, "--perftrack.detection.batch-settle=1s")) {
      Http http = second.http();
      await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(250))
          .until(() -> regressions(http).size() > 0);
      assertThat(regressions(http)).singleElement().satisfies(r -> {
        assertThat(r.get("version").asString()).isEqualTo("1.7.2");
        assertThat(r.get("history").findValuesAsString("action")).doesNotContain("reattributed", "withdrawn");
      });
    }
  }
}
