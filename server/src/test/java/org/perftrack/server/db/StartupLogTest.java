package org.perftrack.server.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.server.support.ServerProcess;

/** What an operator reads in the log of a first start and a stop: where to go, and nothing that sounds wrong. */
class StartupLogTest {

  @TempDir
  Path dir;

  @Test
  void aFirstStartSaysWhereItIsReadyAndAStopSaysNothingAlarming() throws Exception {
    String log;
    try (ServerProcess server = ServerProcess.start(dir.resolve("perftrack-data"), dir.resolve("server.log"),
        "--perftrack.alerts.enabled=false", "--spring.mail.port=" + IntegrationTest.freePort())) {
      await().atMost(Duration.ofSeconds(60)).until(() -> server.log().contains("perftrack is ready at"));
      server.terminate(Duration.ofSeconds(30));
      log = server.log();
    }

    assertThat(Pattern.compile("perftrack is ready at http://localhost:\\d+\\b").matcher(log).results().count())
        .as(log).isEqualTo(1);
    assertThat(log).doesNotContain("outOfOrder").doesNotContain("Did not clean up directory");
    // the warnings an operator reads are the token and password shown once; not SpringDoc's advice to switch off
    // the OpenAPI document and Swagger UI that the README offers
    assertThat(log.lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).toList())
        .allMatch(l -> l.contains("o.perftrack.server.security.Bootstrap"));
  }
}
