package org.perftrack.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.perftrack.server.PerftrackApplication;
import org.perftrack.server.db.MigratedData;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * On a first start, the token of {@code PERFTRACK_BOOTSTRAP_TOKEN} and the admin user are stored before the web
 * server accepts a request: an agent started with the server (a lab's boot script) uploads at once, and a token
 * stored a moment after the port opened answered those uploads 401 "not valid". Seen in {@code ShutdownTest}
 * under load: six clients, six 401s in the first second.
 */
class BootstrapBeforeServingTest {

  @TempDir
  Path dir;

  @Test
  void theBootstrapTokenAndTheAdminAreStoredWhenThePortOpens() {
    AtomicReference<String> whenServing = new AtomicReference<>();
    ApplicationListener<WebServerInitializedEvent> probe = event -> {
      JdbcClient jdbc = event.getApplicationContext().getBean(JdbcClient.class);
      whenServing.set(jdbc.sql("SELECT (SELECT count(*) FROM api_token WHERE name = 'bootstrap') || ' token, '"
          + " || (SELECT count(*) FROM app_user WHERE username = 'admin') || ' admin'").query(String.class).single());
    };
    try (ConfigurableApplicationContext app = new SpringApplicationBuilder(PerftrackApplication.class)
        .listeners(probe)
        .run("--server.port=0", "--perftrack.embedded-db.dir=" + MigratedData.copyTo(dir.resolve("db")),
            "--perftrack.bootstrap-token=bootstrap-before-serving-0123456789", "--perftrack.admin.password=first-admin",
            "--perftrack.alerts.enabled=false", "--logging.level.root=WARN")) {
      assertThat(whenServing.get()).as("stored when the web server started").isEqualTo("1 token, 1 admin");
      ApiTokens tokens = app.getBean(ApiTokens.class);
      assertThat(tokens.authenticate("bootstrap-before-serving-0123456789")).isPresent();
    }
  }
}
