package org.perftrack.server.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Base of the tests that go through real HTTP into the real server on the embedded PostgreSQL.
 * All subclasses share one application context (and one database); tests keep apart by using
 * their own product and machine names ({@link Fixtures#unique}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "perftrack.bootstrap-token=" + IntegrationTest.TOKEN,
    "perftrack.admin.password=" + IntegrationTest.ADMIN_PASSWORD,
    "spring.mail.host=127.0.0.1",
    "spring.mail.port=3025"})
public abstract class IntegrationTest {

  public static final String TOKEN = "test-token-0123456789";
  public static final String ADMIN_PASSWORD = "admin-test-password";

  private static final Path DB_DIR = tempDir();

  @LocalServerPort
  protected int port;

  @Autowired
  protected JdbcClient jdbc;

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    registry.add("perftrack.embedded-db.dir", DB_DIR::toString);
  }

  protected Http http() {
    return new Http("http://localhost:" + port);
  }

  private static Path tempDir() {
    try {
      return Files.createTempDirectory("perftrack-test-db");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
