package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.perftrack.server.support.Fixtures.json;
import static org.perftrack.server.support.Fixtures.result;
import static org.perftrack.server.support.Fixtures.run;
import static org.perftrack.server.support.Fixtures.unique;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.perftrack.server.support.Http;
import org.perftrack.server.support.IntegrationTest;
import org.springframework.beans.factory.annotation.Autowired;

/** Issue 12 items 4 and 5: what each token scope allows, and a revoked bootstrap token stays revoked. */
class TokenScopesTest extends IntegrationTest {

  @Autowired ApiTokens tokens;

  @Test
  void theUploadAndReadBootstrapTokenCannotTriageSilenceOrSeeSubscribers() {
    assertThat(http().postJson("/api/v1/runs", json(run(unique("p"), "1.0", unique("m"), result("fork", 1, 2))), TOKEN)
        .status()).isEqualTo(201);
    Http.Response patch = http().patchJson("/api/v1/regressions/1", "{\"status\":\"invalid\"}", TOKEN);
    assertThat(patch.status()).isEqualTo(403);
    assertThat(patch.contentType()).startsWith("application/problem+json");
    assertThat(patch.json().get("detail").asString()).as("which scope it needs, which the token has")
        .isEqualTo("this request needs the triage scope (or admin); this token has upload, read; an admin chooses a"
            + " token's scopes when making it on /admin");
    assertThat(send("PUT", "/api/v1/benchmark-settings/cygwin/write-64b", "{\"ignored\":true}", TOKEN).status())
        .isEqualTo(403);
    assertThat(http().getWithToken("/api/v1/subscriptions", TOKEN).status()).isEqualTo(403);
    assertThat(send("DELETE", "/api/v1/subscriptions/1", null, TOKEN).status()).isEqualTo(403);
  }

  @Test
  void aTriageTokenTriagesButNeitherUploadsNorSeesSubscribers() {
    String triage = token(Scope.TRIAGE);
    assertThat(http().patchJson("/api/v1/regressions/999999999", "{\"status\":\"invalid\"}", triage).status())
        .as("past the scope check: the regression does not exist").isEqualTo(404);
    String product = unique("p");
    assertThat(http().postJson("/api/v1/runs", json(run(product, "1.0", unique("m"), result("fork", 1, 2))), TOKEN)
        .status()).isEqualTo(201);
    assertThat(send("PUT", "/api/v1/benchmark-settings/" + product + "/fork", "{\"ignored\":false}", triage).status())
        .isEqualTo(200);
    assertThat(http().postJson("/api/v1/runs", json(run(unique("p"), "1.0", unique("m"), result("fork", 1, 2))), triage)
        .status()).isEqualTo(403);
    Http.Response subscribers = http().getWithToken("/api/v1/subscriptions", triage);
    assertThat(subscribers.status()).isEqualTo(403);
    assertThat(subscribers.json().get("detail").asString())
        .startsWith("this request needs the admin scope; this token has triage;");
    Http.Response upload = http().postJson("/api/v1/runs", json(run(unique("p"), "1.0", unique("m"), result("fork", 1, 2))),
        triage);
    assertThat(upload.json().get("detail").asString()).startsWith("this request needs the upload scope (or admin);");
    assertThat(http().getWithToken("/api/v1/subscriptions", ADMIN_TOKEN).status()).isEqualTo(200);
  }

  @Test
  void aWriteNoRuleDeclaresNeedsTheAdminScope() {
    String everythingButAdmin = token(Scope.UPLOAD, Scope.READ, Scope.TRIAGE);
    assertThat(send("POST", "/api/v1/not-yet-written", "{}", everythingButAdmin).status()).isEqualTo(403);
    assertThat(send("DELETE", "/api/v1/regressions/1", null, everythingButAdmin).status()).isEqualTo(403);
    assertThat(send("POST", "/api/v1/not-yet-written", "{}", null).status()).isEqualTo(401);
    assertThat(send("POST", "/api/v1/not-yet-written", "{}", ADMIN_TOKEN).status()).as("past security").isIn(404, 405);
  }

  @Test
  void aRevokedBootstrapTokenStaysRevokedWhenTheServerRegistersItAgainAtStart() {
    String chosen = "operator-chosen-" + unique("t");
    long id = tokens.register("bootstrap", chosen, "PERFTRACK_BOOTSTRAP_TOKEN", Scope.BOOTSTRAP);
    assertThat(tokens.authenticate(chosen)).map(ApiTokens.Valid::scopes).contains(EnumSet.of(Scope.UPLOAD, Scope.READ));
    assertThat(tokens.revoke(id)).isTrue();

    assertThat(tokens.register("bootstrap", chosen, "PERFTRACK_BOOTSTRAP_TOKEN", Scope.BOOTSTRAP)).isEqualTo(id);
    assertThat(tokens.authenticate(chosen)).isEmpty();
    assertThat(http().postJson("/api/v1/runs", json(run(unique("p"), "1.0", unique("m"), result("fork", 1))), chosen)
        .status()).isEqualTo(401);
  }

  @Test
  void theOpenApiDocumentDescribesTheScopes() {
    String docs = http().get("/v3/api-docs").body();
    assertThat(docs).contains("bearer", "upload", "triage", "admin", "subscribers");
  }

  private Http.Response send(String method, String path, String body, String token) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
        .header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return http().send(b);
  }
}
