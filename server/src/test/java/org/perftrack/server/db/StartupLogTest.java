package org.perftrack.server.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.server.support.RawPost;
import org.perftrack.server.support.ServerProcess;

/** What an operator reads in the log of a first start and a stop: where to go, and nothing that sounds wrong. */
class StartupLogTest {

  @TempDir
  Path dir;

  /**
   * Also: a server without {@code perftrack.public-url} warns that its links go to the default, and a run report's
   * links go there whatever {@code Host} a request names (not to a host of the requester's choosing).
   */
  @Test
  void aFirstStartSaysWhereItIsReadyAndAStopSaysNothingAlarming() throws Exception {
    String log;
    try (ServerProcess server = ServerProcess.start(dir.resolve("perftrack-data"), dir.resolve("server.log"),
        "--perftrack.alerts.enabled=false", "--spring.mail.port=" + IntegrationTest.freePort(),
        "--perftrack.bootstrap-token=" + IntegrationTest.TOKEN)) {
      await().atMost(Duration.ofSeconds(60)).until(() -> server.log().contains("perftrack is ready at"));
      Http.Response uploaded = server.http().postJson("/api/v1/runs", Fixtures.json(Fixtures.run("p", "1.0", "m",
          Fixtures.result("fork", 75.0, 75.2, 74.9))), IntegrationTest.TOKEN);
      assertThat(uploaded.status()).as(uploaded.body()).isEqualTo(201);
      String id = uploaded.json().get("id").asString();
      RawPost.Answer report = RawPost.get(Integer.parseInt(server.base().replaceAll(".*:", "")), "evil.example",
          "/api/v1/runs/" + id + "/report", IntegrationTest.TOKEN);
      assertThat(report.body()).as(report.head()).contains("(http://localhost:8080/runs/" + id + ")")
          .doesNotContain("evil");
      server.terminate(Duration.ofSeconds(30));
      log = server.log();
    }

    assertThat(Pattern.compile("perftrack is ready at http://localhost:\\d+\\b").matcher(log).results().count())
        .as(log).isEqualTo(1);
    assertThat(log).doesNotContain("outOfOrder").doesNotContain("Did not clean up directory");
    // the warnings an operator reads are the password shown once and the public URL to set; not SpringDoc's advice
    // to switch off the OpenAPI document and Swagger UI that the README offers
    assertThat(log).contains("perftrack.public-url (PERFTRACK_PUBLIC_URL) is not set: links in mails, run reports and feeds"
        + " start with its default, http://localhost:8080");
    assertThat(log.lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).toList())
        .allMatch(l -> l.contains("o.perftrack.server.security.Bootstrap") || l.contains("perftrack.public-url"));
  }
}
