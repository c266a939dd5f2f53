package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import tools.jackson.databind.JsonNode;

/**
 * Issue 26 item 5: an import's counts add up to its lines and count committed runs only. A batch whose transaction
 * fails late (here: its detection points refused by a trigger, after its runs and results were written) counts as
 * failed, not created.
 */
class ImportCountsTest extends IntegrationTest {

  @Test
  void aBatchRolledBackAfterItsRunsWereWrittenCountsAsFailedNotCreated() {
    String product = unique("p");
    String machine = unique("m");
    jdbc.sql("""
        CREATE OR REPLACE FUNCTION refuse_point_666() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused for the test'; END $$""").update();
    jdbc.sql("""
        CREATE TRIGGER refuse_point_666 BEFORE INSERT ON detection_point FOR EACH ROW
        WHEN (NEW.level = 666) EXECUTE FUNCTION refuse_point_666()""").update();
    try {
      List<String> lines = new ArrayList<>();
      // the first batch (200 lines) has the refused line; the second (5 lines) is stored
      for (int v = 1; v <= ImportService.BATCH_RUNS + 5; v++) {
        double x = v == 3 ? 666 : 18;
        lines.add(json(run(product, "1." + v, machine, result("write-64b", x, x, x))));
      }
      Http.Response r = http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/runs:import"))
          .header("Content-Type", "application/x-ndjson").header("Authorization", "Bearer " + TOKEN)
          .POST(HttpRequest.BodyPublishers.ofString(String.join("\n", lines) + "\n")));
      JsonNode report = r.json();
      assertThat(report.get("created").asInt() + report.get("unchanged").asInt() + report.get("failed").asInt())
          .as(r.body()).isEqualTo(ImportService.BATCH_RUNS + 5);
      assertThat(report.get("created").asInt()).as("only the second batch was committed").isEqualTo(5);
      assertThat(report.get("failed").asInt()).isEqualTo(ImportService.BATCH_RUNS);
      assertThat(jdbc.sql("SELECT count(*) FROM run r JOIN product p ON p.id = r.product_id WHERE p.name = ?")
          .param(product).query(Long.class).single()).isEqualTo(5);
    } finally {
      jdbc.sql("DROP TRIGGER refuse_point_666 ON detection_point").update();
    }
  }
}
