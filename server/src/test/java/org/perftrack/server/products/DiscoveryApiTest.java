package org.perftrack.server.products;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.perftrack.wire.RunUpload;
import tools.jackson.databind.JsonNode;

/** A script finds products, machines, versions and benchmarks page by page, without scraping the pages. */
class DiscoveryApiTest extends IntegrationTest {

  private final String product = unique("cygwin");
  private final String lab = unique("xp-lab");
  private final String ci = unique("ci");

  @Test
  void productsMachinesVersionsAndBenchmarksComePageByPageInTheirOrder() {
    for (String version : List.of("1.7.10", "1.5.19-4", "1.7.5", "1.5.24-2")) {
      upload(run(product, version, lab, result("write-64b", 18, 18.1, 18.2), result("fork", 75, 75.1, 75.2),
          result("null-call", 40, 41, 40.5)));
    }
    upload(run(product, "1.7.5", ci, result("write-64b", 18, 18.1, 18.2)));
    upload(run(product, "1.7.10", ci, result("write-64b", 18, 18.1, 18.2)).onBranch("pr-7", "1.7.5"));

    assertThat(all("/api/v1/products?limit=1000", "name")).contains(product);
    assertThat(all("/api/v1/products/" + product + "/machines?limit=1", "name")).containsExactly(ci, lab);
    assertThat(all("/api/v1/products/" + product + "/versions?limit=3", "name"))
        .containsExactly("1.5.19-4", "1.5.24-2", "1.7.5", "1.7.10");
    assertThat(all("/api/v1/products/" + product + "/versions?order=newest&limit=1&machine=" + ci, "name"))
        .as("the branch's 1.7.10 is not a version of the default branch").containsExactly("1.7.5");
    assertThat(all("/api/v1/products/" + product + "/versions?limit=3&machine=", "name"))
        .as("an empty filter is no filter").containsExactly("1.5.19-4", "1.5.24-2", "1.7.5", "1.7.10");
    assertThat(all("/api/v1/products/" + product + "/benchmarks?limit=2", "benchmark"))
        .containsExactly("fork", "null-call", "write-64b");
    JsonNode write = get("/api/v1/products/" + product + "/benchmarks?after=null-call").get("items").get(0);
    assertThat(write.get("metric").asString()).isEqualTo("time-per-op");
    assertThat(write.get("unit").asString()).isEqualTo("us");
    assertThat(write.get("machines").asLong()).isEqualTo(2);
  }

  @Test
  void anUnknownProductIs404AndABadLimitOrderOrCursorIs400NamingIt() {
    upload(run(product, "1.0", lab, result("fork", 75, 75.1, 75.2)));

    assertThat(http().getWithToken("/api/v1/products/" + unique("none") + "/versions", TOKEN).status())
        .isEqualTo(404);
    for (String[] bad : List.of(new String[] {"/api/v1/products?limit=0", "limit"},
        new String[] {"/api/v1/products/" + product + "/versions?limit=1001", "limit"},
        new String[] {"/api/v1/products/" + product + "/versions?order=random", "order"},
        new String[] {"/api/v1/products/" + product + "/versions?after=9.9", "after"})) {
      Http.Response r = http().getWithToken(bad[0], TOKEN);
      assertThat(r.status()).as(bad[0]).isEqualTo(400);
      assertThat(r.body()).as(bad[0]).contains("\"" + bad[1] + "\"");
    }
  }

  /** Every item's {@code field}, following {@code next} to the last page. */
  private List<String> all(String path, String field) {
    List<String> out = new ArrayList<>();
    String after = null;
    do {
      JsonNode page = get(path + (after == null ? "" : "&after=" + after));
      page.get("items").forEach(item -> out.add(item.get(field).asString()));
      after = page.get("next").isNull() ? null : page.get("next").asString();
    } while (after != null);
    return out.stream().distinct().toList();
  }

  private JsonNode get(String path) {
    Http.Response r = http().getWithToken(path, TOKEN);
    assertThat(r.status()).as(path + ": " + r.body()).isEqualTo(200);
    return r.json();
  }

  private void upload(RunUpload run) {
    Http.Response r = http().postJson("/api/v1/runs", json(run), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
  }
}
