package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.perftrack.server.branches.Branches;
import org.perftrack.server.support.Fixtures;
import org.perftrack.server.support.FormClient;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;

/** The low findings of the third security round, each through the real server. */
class LowFindingsTest extends IntegrationTest {

  @Autowired
  Branches branches;

  @Test
  void headOfAnAdminOnlyReadNeedsAdminAsItsGetDoes() {
    for (String path : List.of("/api/v1/deletions", "/api/v1/audit", "/api/v1/subscriptions")) {
      assertThat(head(path, null)).as(path + " anonymous").isEqualTo(401);
      assertThat(head(path, TOKEN)).as(path + " with a read token").isEqualTo(403);
      assertThat(head(path, ADMIN_TOKEN)).as(path + " as admin").isEqualTo(200);
    }
  }

  @Test
  void theAuditsBadBeforeOrLimitIsAProblemDetailNamingIt() {
    for (String query : List.of("before=abc", "limit=x", "limit=0", "before=%00")) {
      Http.Response r = http().getWithToken("/api/v1/audit?" + query, ADMIN_TOKEN);
      assertThat(r.status()).as(query).isEqualTo(400);
      assertThat(r.contentType()).as(query).startsWith("application/problem+json");
      assertThat(r.json().get("fields").get(0).get("field").asString()).as(query).isEqualTo(query.split("=")[0]);
    }
  }

  @Test
  void aBranchPruneAndSubscriptionChangesOverTheApiAreAudited() {
    String product = unique("p");
    String machine = unique("m");
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.0", machine, result("fork", 75.0, 75.1))), TOKEN)
        .status()).isEqualTo(201);
    Map<String, Object> branchRun = Fixtures.asMap(run(product, "1.1", machine, result("fork", 75.0, 75.1)));
    branchRun.put("branch", "stale");
    assertThat(http().postJson("/api/v1/runs", json(branchRun), TOKEN).status()).isEqualTo(201);
    jdbc.sql("UPDATE branch SET last_run_at = now() - interval '1000 days' WHERE name = 'stale'"
        + " AND product_id = (SELECT id FROM product WHERE name = ?)").param(product).update();
    String email = unique("someone") + "@example.org";

    branches.prune();
    Http.Response created = http().postJson("/api/v1/subscriptions", "{\"email\": \"" + email + "\", \"product\": \""
        + product + "\"}", ADMIN_TOKEN);
    long id = created.json().get("id").asLong();
    int removed = http().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
        + "/api/v1/subscriptions/" + id)).header("Authorization", "Bearer " + ADMIN_TOKEN).DELETE()).status();

    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(removed).isEqualTo(204);
    String audit = http().getWithToken("/api/v1/audit?limit=1000", ADMIN_TOKEN).body();
    assertThat(audit).contains("\"actor\":\"perftrack\",\"action\":\"pruned\",\"target\":\"branch stale of " + product)
        .contains("\"action\":\"subscribed\",\"target\":\"subscription " + id + "\",\"detail\":\"" + email)
        .contains("\"action\":\"removed subscription\",\"target\":\"subscription " + id + "\"");
  }

  @Test
  void noUserMayBeNamedAsTheServerItselfInTheAuditLog() {
    FormClient browser = signedInAdmin();

    browser.post("/admin", "/admin/users", "username=Perftrack&password=correct-horse-battery&role=ADMIN");

    assertThat(browser.get("/admin").body()).contains("User name: perftrack is the name the audit log gives");
    assertThat(jdbc.sql("SELECT count(*) FROM app_user WHERE lower(username) = 'perftrack'").query(Long.class)
        .single()).isZero();
  }

  @Test
  void renamingOntoADeletedMachinesNameSaysSoRatherThanSuggestingAMergeThatFails() {
    String product = unique("p");
    String kept = unique("kept");
    String gone = unique("gone");
    for (String machine : List.of(kept, gone)) {
      assertThat(http().postJson("/api/v1/runs", json(run(product, "1.0", machine, result("fork", 75.0))), TOKEN)
          .status()).isEqualTo(201);
    }
    assertThat(http().send(admin("/api/v1/machines/" + gone).DELETE()).status()).isEqualTo(200);

    Http.Response rename = http().send(admin("/api/v1/machines/" + kept + ":rename")
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"name\": \"" + gone
            + "\"}")));

    assertThat(rename.status()).isEqualTo(409);
    assertThat(rename.body()).contains("a deleted machine " + gone, "restore it").doesNotContain("instead");
  }

  private HttpRequest.Builder admin(String path) {
    return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .header("Authorization", "Bearer " + ADMIN_TOKEN);
  }

  private int head(String path, String token) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .method("HEAD", HttpRequest.BodyPublishers.noBody());
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http().send(b).status();
  }
}
