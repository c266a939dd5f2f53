package org.perftrack.server.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.unique;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;

/** A comparison's CSV travels compressed to a client that accepts gzip, as the pages and JSON do. */
class CsvCompressionTest extends IntegrationTest {

  @Test
  void compareCsvIsGzippedForAClientThatAcceptsIt() throws Exception {
    String product = unique("csv");
    for (String version : List.of("1.0", "1.1")) {
      List<RunUpload.ResultUpload> results = new ArrayList<>();
      for (int i = 0; i < 80; i++) {
        results.add(Fixtures.result("benchmark-with-a-long-name-" + i, 10 + i, 10.1 + i, 9.9 + i));
      }
      assertThat(http().postJson("/api/v1/runs", json(Fixtures.run(product, version, "m",
          results.toArray(RunUpload.ResultUpload[]::new))), TOKEN).status()).isEqualTo(201);
    }

    HttpResponse<byte[]> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
        "http://localhost:" + port + "/compare.csv?product=" + product + "&base=1.0&head=1.1"))
        .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Encoding")).hasValue("gzip");
    String csv = new String(new GZIPInputStream(new ByteArrayInputStream(r.body())).readAllBytes(),
        StandardCharsets.UTF_8);
    assertThat(csv.split("\r\n")).hasSize(81);
    assertThat(r.body().length).isLessThan(csv.length() / 3);
  }
}
