package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.unique;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.support.IntegrationTest;

/**
 * The agent's errors against the real server say what is wrong: a wrong token prints the server's reason and
 * keeps nothing of the refused files for the next good upload; a URL with an extra path is no perftrack server
 * (not a refused token); a URL without scheme is a usage error before anything is sent.
 */
class AgentRefusalsTest extends IntegrationTest {

  @TempDir
  Path home;

  private Path runFile() throws Exception {
    String run = """
        {"id": "%s", "product": "%s", "version": "1.0.0", "machine": {"name": "%s"}, "suite": "posix",
         "results": [{"benchmark": "write-64b", "metric": "time-per-op", "unit": "us",
                      "direction": "lower_is_better", "samples": [48.2, 47.9, 48.4]}]}
        """.formatted(UUID.randomUUID(), unique("refusals"), unique("ci"));
    return Files.writeString(home.resolve("run-" + System.nanoTime() + ".json"), run);
  }

  private AgentProcess.Result upload(String server, String token, Path file) throws Exception {
    return AgentProcess.run(home, "upload", "--server", server, "--token", token, "--spool",
        home.resolve("spool").toString(), "--retry-attempts", "2", "--retry-delay-ms", "50", file.toString());
  }

  @Test
  void aWrongTokenSaysWhyAndTheRefusedFileIsNotSentTwiceLater() throws Exception {
    Path file = runFile();
    String server = "http://localhost:" + port;

    AgentProcess.Result refused = upload(server, "not-a-token-of-this-server", file);
    AgentProcess.Result good = upload(server, TOKEN, file);

    assertThat(refused.exitCode()).as(refused.out()).isEqualTo(1);
    assertThat(refused.out())
        .contains("the server refused the token (HTTP 401): the API token is not valid (unknown or revoked)")
        .contains("1 file of this upload not kept in the spool");
    assertThat(good.exitCode()).as(good.out()).isZero();
    assertThat(good.out()).contains("1 run uploaded, 0 rejected, 0 waiting in the spool");
  }

  @Test
  void aServerUrlWithAnExtraPathIsNoPerftrackServer() throws Exception {
    AgentProcess.Result result = upload("http://localhost:" + port + "/perftrack", TOKEN, runFile());

    assertThat(result.exitCode()).as(result.out()).isEqualTo(1);
    assertThat(result.out()).contains("no perftrack server at this URL: POST http://localhost:" + port
        + "/perftrack/api/v1/runs answered HTTP 403").doesNotContain("refused the token");
  }

  @Test
  void aServerUrlWithoutSchemeIsAUsageError() throws Exception {
    AgentProcess.Result result = upload("localhost:" + port, TOKEN, runFile());

    assertThat(result.exitCode()).as(result.out()).isEqualTo(2);
    assertThat(result.out()).contains("has no scheme: give it with its scheme, e.g. http://localhost:" + port);
    assertThat(home.resolve("spool")).doesNotExist();
  }
}
