package org.perftrack.server.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.db.Json;
import org.perftrack.server.support.IntegrationTest;

/** {@code perftrack-agent import FILE…} as a real process against the real server. */
class AgentImportTest extends IntegrationTest {

  @TempDir
  Path home;

  @Test
  void importsAGzippedHistoryAndASpoolFileInChunksReportingTheBadLineByFileAndNumber() throws Exception {
    String product = unique("cygwin");
    String machine = unique("xp");
    Path history = home.resolve("history.ndjson.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(history))) {
      StringBuilder text = new StringBuilder();
      for (String version : new String[] {"1.0", "1.1", "bad", "1.2", "1.3"}) {
        text.append(version.equals("bad") ? "{\"product\": \"" + product + "\"}"
            : json(run(product, version, machine, result("fork", 75.0, 75.5, 74.5)))).append('\n');
      }
      out.write(text.toString().getBytes(StandardCharsets.UTF_8));
    }
    Path spoolFile = home.resolve("run.json");
    Files.writeString(spoolFile, Json.MAPPER.writerWithDefaultPrettyPrinter()
        .writeValueAsString(run(product, "1.4", machine, result("fork", 75.0, 75.2))));
    String server = "http://localhost:" + port;

    AgentProcess.Result first = AgentProcess.run(home, "import", "--server", server, "--token", TOKEN, "--chunk", "2",
        history.toString(), spoolFile.toString());
    AgentProcess.Result again = AgentProcess.run(home, "import", "--server", server, "--token", TOKEN,
        history.toString(), spoolFile.toString());

    assertThat(first.exitCode()).as(first.out()).isEqualTo(1);
    assertThat(first.out()).contains("history.ndjson.gz: lines 1-2: 2 new, 0 unchanged, 0 bad")
        .contains("history.ndjson.gz: line 3: id: is required")
        .contains("history.ndjson.gz: lines 5-5: 1 new")
        .contains("import done: 5 runs new, 0 unchanged, 1 bad line");
    assertThat(again.out()).as("a second import changes nothing").contains("import done: 0 runs new, 5 unchanged, 1 bad line");
    assertThat(jdbc.sql("SELECT count(*) FROM run r JOIN product p ON p.id = r.product_id WHERE p.name = ?")
        .param(product).query(Long.class).single()).isEqualTo(5);
  }

  @Test
  void aCsvFileIsImportedAsCsvWithItsLinesNamed() throws Exception {
    String product = unique("cygwin");
    Path csv = home.resolve("history.csv");
    Files.writeString(csv, """
        product,machine,version,benchmark,metric,unit,direction,samples
        %1$s,xp,1.0,fork,time-per-op,us,lower_is_better,75 76 75.5
        %1$s,xp,1.1,fork,time-per-op,us,lower_is_better,74 75
        %1$s,xp,1.2,fork,time-per-op,us,sideways,74 75
        """.formatted(product));

    AgentProcess.Result result = AgentProcess.run(home, "import", "--server", "http://localhost:" + port,
        "--token", TOKEN, csv.toString());

    assertThat(result.exitCode()).as(result.out()).isEqualTo(1);
    assertThat(result.out()).contains("history.csv: line 4: ")
        .contains("import done: 2 runs new, 0 unchanged, 1 bad line").doesNotContain("is not a run in JSON");
    assertThat(jdbc.sql("SELECT count(*) FROM run r JOIN product p ON p.id = r.product_id WHERE p.name = ?")
        .param(product).query(Long.class).single()).isEqualTo(2);
  }
}
