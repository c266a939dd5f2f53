package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.support.Http;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** Issue 12 item 9: with {@code public-read=false}, the read scope reads the API and its OpenAPI document. */
class PrivateReadTest {

  @TempDir
  Path dir;

  @Test
  void aReadTokenReadsTheApiAndTheOpenApiDocumentAndAnUploadOnlyTokenDoesNot() {
    try (ConfigurableApplicationContext ctx = new SpringApplicationBuilder(PerftrackApplication.class).run(
        "--server.port=0", "--perftrack.embedded-db.dir=" + dir.resolve("data"), "--perftrack.admin.password=pw",
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
    }
  }
}
