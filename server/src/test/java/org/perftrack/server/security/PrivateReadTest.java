package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.db.MigratedData;
import org.perftrack.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Issue 12 item 9: with {@code public-read=false}, the read scope reads the API and its OpenAPI document (and the
 * Atom feeds, with the token in their address).
 */
class PrivateReadTest {

  @TempDir
  Path dir;

  @Test
  void aReadTokenReadsTheApiTheOpenApiDocumentAndTheFeedsAndAnUploadOnlyTokenDoesNot() {
    try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(PerftrackApplication.class).run(
        "--server.port=0", "--perftrack.embedded-db.dir=" + MigratedData.copyTo(dir.resolve("data")),
        "--perftrack.admin.password=pw",
        "--perftrack.bootstrap-token=private-read-token-42", "--perftrack.security.public-read=false",
        "--perftrack.alerts.enabled=false")) {
      Http http = new Http("http://localhost:" + ((WebServerApplicationContext) ctx).getWebServer().getPort());
      ApiTokens tokens = ctx.getBean(ApiTokens.class);
      String read = tokens.create("reader", "test", EnumSet.of(Scope.READ)).token();
      String uploadOnly = tokens.create("ci", "test", EnumSet.of(Scope.UPLOAD)).token();

      for (String path : new String[] {"/api/v1/regressions", "/api/v1/products", "/v3/api-docs"}) {
        assertThat(http.get(path).status()).as("anonymous " + path).isEqualTo(401);
        Http.Response r = http.getWithToken(path, read);
        assertThat(r.status()).as("read scope " + path + ": " + r.body()).isEqualTo(200);
        assertThat(http.getWithToken(path, uploadOnly).status()).as("upload scope " + path).isEqualTo(403);
      }
      assertThat(http.getWithToken("/v3/api-docs", read).body()).contains("\"openapi\"");
      assertThat(http.getWithToken("/api/v1/regressions", "private-read-token-42").status())
          .as("the bootstrap token reads too").isEqualTo(200);

      // a feed reader sends no header: the read token is in the feed's address
      for (String feed : new String[] {"/feeds/regressions.atom", "/feeds/summaries.atom"}) {
        Http.Response anonymous = http.get(feed);
        assertThat(anonymous.status()).as("anonymous " + feed).isEqualTo(401);
        assertThat(anonymous.body()).contains("?token=");
        Http.Response withToken = http.get(feed + "?token=" + read);
        assertThat(withToken.status()).as(feed + ": " + withToken.body()).isEqualTo(200);
        assertThat(withToken.body()).contains("<feed xmlns=\"http://www.w3.org/2005/Atom\"").doesNotContain(read);
        assertThat(http.get(feed + "?token=" + uploadOnly).status()).as("upload scope " + feed).isEqualTo(403);
        assertThat(http.get(feed + "?token=pt_unknown").status()).as("unknown token " + feed).isEqualTo(401);
      }
    }
  }
}
