package org.perftrack.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.run;

import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;

/**
 * An import judges what it stored and what was left due before it began, not what another import still running
 * stored meanwhile (that one judges it at its end): two imports of one machine's series do not judge each other's
 * runs, nor wait for each other to do so.
 */
class ImportsMeanwhileTest extends IntegrationTest {

  private final Random random = new Random(5);

  @Test
  void anImportLeavesTheRunsOfAnImportStillRunningToThatImport() throws Exception {
    String product = Fixtures.unique("meanwhile");
    // the first import: 250 versions, its body kept open after them, so it has stored a batch and judged nothing
    PipedOutputStream body = new PipedOutputStream();
    PipedInputStream in = new PipedInputStream(body, 1 << 16);
    CompletableFuture<HttpResponse<String>> first = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .build().sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/runs:import"))
            .header("Content-Type", "application/x-ndjson").header("Authorization", "Bearer " + TOKEN)
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> in)).build(), HttpResponse.BodyHandlers.ofString());
    body.write(lines(product, 1, 250).getBytes(StandardCharsets.UTF_8));
    body.flush();
    await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200)).until(() -> due(product) >= 200);
    long dueBefore = due(product);

    // a second import of the same series, versions after them, while the first is still reading its body
    Http.Response second = http().postBytes("/api/v1/runs:import",
        lines(product, 300, 310).getBytes(StandardCharsets.UTF_8), "application/x-ndjson", TOKEN);
    assertThat(second.status()).as(second.body()).isEqualTo(200);
    assertThat(second.json().get("created").asInt()).isEqualTo(11);
    assertThat(due(product)).as("the first import's pairs are left to it").isEqualTo(dueBefore);

    body.close();
    HttpResponse<String> answered = first.get();
    assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
    assertThat(due(product)).as("judged by the import that stored them").isZero();
  }

  /** Unjudged (series, version) pairs of the product's series: due, or of runs an import stored and judges. */
  private long due(String product) {
    return jdbc.sql("""
        SELECT count(*) FROM (
          SELECT series_id, version_id FROM judging_due
          UNION SELECT r.series_id, r.version_id FROM import_due i CROSS JOIN LATERAL unnest(i.run_ids) AS u(run_id)
            JOIN result r ON r.run_id = u.run_id) d
        JOIN series s ON s.id = d.series_id JOIN product p ON p.id = s.product_id
        WHERE p.name = ?""").param(product).query(Long.class).single();
  }

  /** Runs of one machine, versions 1.from to 1.to, one write-64b result each, as NDJSON lines. */
  private String lines(String product, int from, int to) {
    StringBuilder out = new StringBuilder();
    for (int v = from; v <= to; v++) {
      List<Double> samples = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        samples.add(18 * (1 + 0.01 * random.nextGaussian()));
      }
      RunUpload r = run(product, "1." + v, "m0", new RunUpload.ResultUpload("write-64b", "time-per-op", "us",
          RunUpload.LOWER_IS_BETTER, samples));
      out.append(json(r)).append('\n');
    }
    return out.toString();
  }
}
