package org.perftrack.server.curation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.web.util.UriUtils;

/**
 * Names a path cannot carry: an upload token could plant a product or machine named {@code a/b} or {@code a;b} whose
 * pages and every delete answered 400 (the firewall refuses such paths), and a branch {@code ../../admin} linked as a
 * path that resolves to {@code /admin}. Uploads refuse them now; what is stored already is curated by query parameter.
 */
class PathUnsafeNamesTest extends IntegrationTest {

  private static final List<String> UNSAFE = List.of("a/b", "a\\b", "a;b", "a%b", "a%2Fb", ".", "..");

  @Test
  void productMachineVersionAndBranchNamesAPathCannotCarryAreRefusedNamingTheField() {
    for (String name : UNSAFE) {
      assertRefused(Fixtures.asMap(run(name, "1.0", unique("m"), result("fork", 1, 2))), "product", name);
      assertRefused(Fixtures.asMap(run(unique("p"), name, unique("m"), result("fork", 1, 2))), "version", name);
      assertRefused(Fixtures.asMap(run(unique("p"), "1.0", name, result("fork", 1, 2))), "machine.name", name);
    }
    for (String branch : List.of("../../admin", "a/./b", "a//b", "a/", "a\\b", "a;b", "a%b", "..")) {
      Map<String, Object> body = Fixtures.asMap(run(unique("p"), "1.0", unique("m"), result("fork", 1, 2)));
      body.put("branch", branch);
      assertRefused(body, "branch", branch);
    }
    String product = unique("p");
    String machine = unique("m");
    upload(product, "1.0", machine);
    Map<String, Object> feature = Fixtures.asMap(run(product, "1.1", machine, result("fork", 75.0, 75.1, 74.9)));
    feature.put("branch", "feature/fast-copy");
    Http.Response accepted = http().postJson("/api/v1/runs", json(feature), TOKEN);
    assertThat(accepted.status()).as(accepted.body()).isEqualTo(201);
  }

  @Test
  void storedNamesAPathCannotCarryAreRemovedByQueryParameter() {
    String product = unique("p");
    String machine = unique("m");
    upload(product, "1.0", machine);
    upload(product, "2.0", machine);
    // planted as uploads accepted them before
    String badProduct = product + "/x;%";
    String badMachine = machine + "\\y;";
    String badVersion = "2.0/..;%";
    jdbc.sql("UPDATE product SET name = ? WHERE name = ?").params(badProduct, product).update();
    jdbc.sql("UPDATE machine SET name = ? WHERE name = ?").params(badMachine, machine).update();
    jdbc.sql("UPDATE version SET name = ? WHERE name = '2.0' AND product_id = (SELECT id FROM product WHERE name = ?)")
        .params(badVersion, badProduct).update();
    assertThat(delete("/api/v1/products/" + UriUtils.encodePathSegment(badProduct, StandardCharsets.UTF_8)).status())
        .as("the path is refused").isEqualTo(400);

    Http.Response version = delete("/api/v1/versions?product=" + q(badProduct) + "&version=" + q(badVersion));
    Http.Response renamed = http().send(request("/api/v1/machines:rename?name=" + q(badMachine))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + machine + "-renamed\"}")));
    Http.Response gone = delete("/api/v1/machines?name=" + q(machine + "-renamed"));
    Http.Response productGone = delete("/api/v1/products?name=" + q(badProduct));
    Http.Response unknown = delete("/api/v1/products?name=" + q(badProduct));
    Http.Response byUploader = http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
        + "/api/v1/products?name=" + q(product))).header("Authorization", "Bearer " + TOKEN).DELETE());

    assertThat(version.status()).as(version.body()).isEqualTo(200);
    assertThat(version.json().get("target").asString()).contains(badVersion);
    assertThat(renamed.status()).as(renamed.body()).isEqualTo(200);
    assertThat(gone.status()).as(gone.body()).isEqualTo(200);
    assertThat(productGone.status()).as(productGone.body()).isEqualTo(200);
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(byUploader.status()).as("admin only").isEqualTo(403);
    assertThat(http().getWithToken("/api/v1/products", TOKEN).body()).doesNotContain(product);
  }

  @Test
  void aStoredBranchNamedWithDotsIsNotLinkedAsAPathThatLeadsElsewhere() {
    String product = unique("p");
    String machine = unique("m");
    upload(product, "1.0", machine);
    Map<String, Object> body = Fixtures.asMap(run(product, "1.1", machine, result("fork", 75.0, 75.1, 74.9)));
    body.put("branch", "planted");
    Http.Response planted = http().postJson("/api/v1/runs", json(body), TOKEN);
    assertThat(planted.status()).as(planted.body()).isEqualTo(201);
    jdbc.sql("UPDATE branch SET name = '../../../admin' WHERE name = 'planted'"
        + " AND product_id = (SELECT id FROM product WHERE name = ?)").param(product).update();

    String page = http().page("/products/" + product).body();

    assertThat(page).contains("..%2F..%2F..%2Fadmin").doesNotContain("branches/../");
    Http.Response removed = delete("/api/v1/branches?product=" + q(product) + "&name=" + q("../../../admin"));
    assertThat(removed.status()).as(removed.body()).isEqualTo(200);
  }

  private void assertRefused(Map<String, Object> body, String field, String name) {
    Http.Response r = http().postJson("/api/v1/runs", json(body), TOKEN);
    assertThat(r.status()).as(name + ": " + r.body()).isEqualTo(400);
    assertThat(r.json().get("fields").findValuesAsString("field")).as(name).contains(field);
  }

  private void upload(String product, String version, String machine) {
    Http.Response r = http().postJson("/api/v1/runs", json(run(product, version, machine,
        result("fork", 75.0, 75.2, 74.9, 75.1, 75.0))), TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
  }

  private static String q(String value) {
    return UriUtils.encodeQueryParam(value, StandardCharsets.UTF_8).replace("+", "%2B").replace(";", "%3B");
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .header("Authorization", "Bearer " + ADMIN_TOKEN);
  }

  private Http.Response delete(String path) {
    return http().send(request(path).DELETE());
  }
}
