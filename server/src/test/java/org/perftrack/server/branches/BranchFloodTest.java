package org.perftrack.server.branches;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.perftrack.server.security.ApiTokens;
import org.perftrack.server.security.Scope;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * One upload token made 20,000 branches and the pages listing them grew to megabytes: a product has at most
 * perftrack.branches.max-per-product branches and a token's runs start at most max-per-token (1,000 each here, the
 * defaults; the branches before the last are made in the database), the list is paged, the product page shows a page
 * of them and compare's head-from field suggests the recent ones only.
 */
class BranchFloodTest extends IntegrationTest {

  private static final Pattern NEXT = Pattern.compile("<([^>]+)>; rel=\"next\"");

  private final String product = unique("flood");
  private final String machine = unique("box");

  @Autowired
  ApiTokens tokens;

  @Test
  void aProductOrATokenOverItsBranchCapIsRefusedNamingTheCap() {
    mainRun(product);
    branches(product, 999, null);
    ApiTokens.NewToken flooder = tokens.create("flooder", "BranchFloodTest", EnumSet.of(Scope.UPLOAD));
    String other = unique("other");
    mainRun(other);
    branches(other, 999, flooder.id());

    Http.Response thousandth = branchRun(product, "pr-1000", TOKEN);
    Http.Response overProduct = branchRun(product, "pr-1001", TOKEN);
    Http.Response again = branchRun(product, "pr-1000", TOKEN);
    Http.Response tokensThousandth = branchRun(other, "x-1000", flooder.token());
    Http.Response overToken = branchRun(other + "-2", "x-1001", flooder.token());

    assertThat(thousandth.status()).as(thousandth.body()).isEqualTo(201);
    assertThat(overProduct.status()).as(overProduct.body()).isEqualTo(409);
    assertThat(overProduct.body()).contains("perftrack.branches.max-per-product", "1000");
    assertThat(overProduct.json().get("fields").get(0).get("field").asString()).isEqualTo("branch");
    assertThat(again.status()).as("a build of a branch that exists is no new branch").isEqualTo(201);
    assertThat(tokensThousandth.status()).as(tokensThousandth.body()).isEqualTo(201);
    assertThat(overToken.status()).as(overToken.body()).isEqualTo(409);
    assertThat(overToken.body()).contains("perftrack.branches.max-per-token");
  }

  @Test
  void theBranchListIsPagedWithALinkToTheNextPageAndThePagesShowAPageOfThem() {
    mainRun(product);
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.1", machine, result("fork", 75.0, 75.1))),
        TOKEN).status()).isEqualTo(201);
    branches(product, 250, null);

    List<String> names = new ArrayList<>();
    String next = "/api/v1/branches?product=" + product;
    int pages = 0;
    while (next != null) {
      Http.Response r = rawGet(next);
      assertThat(r.status()).as(next + ": " + r.body()).isEqualTo(200);
      JsonNode items = r.json();
      assertThat(items.size()).isLessThanOrEqualTo(100);
      items.valueStream().forEach(b -> names.add(b.get("name").asString()));
      next = linkNext;
      pages++;
    }
    assertThat(pages).isEqualTo(3);
    assertThat(names).hasSize(250);
    assertThat(new HashSet<>(names)).hasSize(250);
    assertThat(http().getWithToken("/api/v1/branches?product=" + product + "&limit=1001", TOKEN).status())
        .isEqualTo(400);
    assertThat(http().getWithToken("/api/v1/branches?product=" + product + "&after=no-such", TOKEN).status())
        .isEqualTo(400);

    String page = http().page("/products/" + product).body();
    Matcher more = Pattern.compile("href=\"([^\"]*branchesAfter=[^\"]*)\">More branches<").matcher(page);
    assertThat(count(page, "/branches/b-")).isEqualTo(50);
    assertThat(more.find()).isTrue();
    String second = http().page(more.group(1).replace("&amp;", "&")).body();
    assertThat(count(second, "/branches/b-")).isEqualTo(50);
    String compare = http().page("/compare?product=" + product).body();
    assertThat(compare).contains("id=\"head-branch\" name=\"headBranch\" type=\"search\"");
    assertThat(count(compare, "<option value=\"b-")).isEqualTo(50);
  }

  private String linkNext;

  private Http.Response rawGet(String path) {
    java.net.http.HttpResponse<String> r;
    try {
      r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
          java.net.URI.create("http://localhost:" + port + path)).header("Authorization", "Bearer " + TOKEN).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
    } catch (java.io.IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
    Matcher m = NEXT.matcher(r.headers().firstValue("Link").orElse(""));
    linkNext = m.find() ? m.group(1) : null;
    return new Http.Response(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      n++;
    }
    return n;
  }

  /** {@code n} branches of {@code product} as earlier runs left them, started by the token {@code tokenId}. */
  private void branches(String product, int n, Long tokenId) {
    jdbc.sql("""
        INSERT INTO branch (product_id, name, token_id, last_run_at)
        SELECT p.id, 'b-' || lpad(i::text, 4, '0'), ?, now() - make_interval(secs => i)
        FROM product p, generate_series(1, ?) AS i WHERE p.name = ?""").params(tokenId, n, product).update();
  }

  private void mainRun(String product) {
    Http.Response r = http().postJson("/api/v1/runs", json(run(product, "1.0", machine, result("fork", 75.0, 75.1))),
        TOKEN);
    assertThat(r.status()).as(r.body()).isEqualTo(201);
  }

  private Http.Response branchRun(String product, String branch, String token) {
    if (!jdbc.sql("SELECT EXISTS (SELECT 1 FROM product WHERE name = ?)").param(product).query(Boolean.class)
        .single()) {
      mainRun(product);
    }
    return http().postJson("/api/v1/runs", json(run(product, "1.1", machine, result("fork", 75.0, 75.1))
        .onBranch(branch, null)), token);
  }
}
