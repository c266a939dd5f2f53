package org.perftrack.agent.upload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.agent.CliRun;
import org.perftrack.agent.ExitCode;

/** A file given to the command that does not take it is refused at once, naming the command that does. */
class WrongCommandTest {

  private static final Path GOLDEN = Path.of("../formats/src/test/resources/golden");

  @TempDir
  Path home;

  @Test
  void importOfAGoogleBenchmarkFileNamesTheUploadThatSendsIt() throws Exception {
    Path bench = Files.copy(GOLDEN.resolve("gbench/repetitions.json"), home.resolve("bench.json"));
    try (FakeServer server = FakeServer.start()) {
      CliRun result = CliRun.run(home, "import", "--server", server.url(), "--token", "t0k", bench.toString());

      assertThat(result.exitCode()).isEqualTo(ExitCode.ERROR);
      assertThat(result.err()).contains("bench.json: this looks like a Google Benchmark file, not a perftrack run")
          .contains("perftrack-agent upload --format gbench --product P --version V");
      assertThat(server.requests()).isZero();
    }
  }

  @Test
  void uploadOfACsvFileNamesTheImportThatSendsIt() throws Exception {
    Path csv = Files.writeString(home.resolve("history.csv"),
        "product,machine,version,benchmark,metric,unit,value\ncygwin,xp,1.5.19-4,write-64b,time-per-op,us,18\n");
    try (FakeServer server = FakeServer.start()) {
      CliRun result = CliRun.run(home, "upload", "--server", server.url(), "--token", "t0k", csv.toString());

      assertThat(result.exitCode()).isEqualTo(ExitCode.ERROR);
      assertThat(result.err()).contains("history.csv: a CSV file goes in with 'perftrack-agent import history.csv'");
      assertThat(server.requests()).isZero();
    }
  }
}
