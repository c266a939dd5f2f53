package org.perftrack.server.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.perftrack.server.security.ApiTokens;
import org.perftrack.server.security.Scope;
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
    // alerts: quick polls and short backoff so that outage tests take seconds; every regression mails the team
    "perftrack.alerts.recipients=" + IntegrationTest.ALERT_RECIPIENT,
    "perftrack.alerts.poll-interval=100ms",
    "perftrack.alerts.backoff=100ms",
    "perftrack.alerts.max-backoff=500ms",
    "perftrack.alerts.summary-settle=1h",
    // a session that sent only some of its runs waits an hour: a test makes the time pass (SessionBatchTest), so
    // that no session is judged early because a loaded machine took long between two of its uploads
    "perftrack.detection.batch-settle=1h",
    // and is judged whatever arrives once its oldest run waited two (SessionBindingTest makes that time pass too)
    "perftrack.detection.batch-max-age=2h",
    "perftrack.public-url=" + IntegrationTest.PUBLIC_URL,
    "perftrack.security.token-pepper=" + IntegrationTest.TOKEN_PEPPER,
    // webhook tests post to a receiver they start on this machine
    "perftrack.webhooks.allowed-networks=" + IntegrationTest.WEBHOOK_NETWORKS,
    // the lab's clock: leases, silent agents and bisection rounds are looked at five times a second
    "perftrack.lab.tick=200ms",
    // profiles are asked for by the tests that want them (ProfilesApiTest): a real agent in the shared context
    // would otherwise trace every regression of the lab tests
    "perftrack.lab.profile.automatically=false"})
public abstract class IntegrationTest {

  /** The bootstrap token: scopes upload and read. */
  public static final String TOKEN = "test-token-0123456789";
  /** A token with the admin scope (triage, subscriptions, everything), registered before each test. */
  public static final String ADMIN_TOKEN = "test-admin-token-0123456789";
  public static final String ADMIN_PASSWORD = "admin-test-password";
  public static final String ALERT_RECIPIENT = "team@perftrack.test";
  public static final String PUBLIC_URL = "https://perftrack.example.org";
  /** The secret API token hashes are made with (perftrack.security.token-pepper). */
  public static final String TOKEN_PEPPER = "test-pepper-0123456789abcdef0123456789";
  public static final String WEBHOOK_NETWORKS = "127.0.0.1/32";

  /** A free port for the shared context's SMTP server, so that several checkouts can run their tests at once. */
  public static final int MAIL_PORT = freePort();

  private static final Path DB_DIR = tempDir();

  @LocalServerPort
  protected int port;

  @Autowired
  protected JdbcClient jdbc;

  @Autowired
  private ApiTokens apiTokens;

  @BeforeEach
  void adminToken() {
    apiTokens.register("test-admin", ADMIN_TOKEN, "IntegrationTest", EnumSet.of(Scope.ADMIN));
  }

  /** A new token with exactly these scopes. */
  protected String token(Scope... scopes) {
    return apiTokens.create("test", "IntegrationTest", EnumSet.copyOf(List.of(scopes))).token();
  }

  @DynamicPropertySource
  static void database(DynamicPropertyRegistry registry) {
    registry.add("perftrack.embedded-db.dir", DB_DIR::toString);
    registry.add("spring.mail.port", () -> MAIL_PORT);
  }

  protected Http http() {
    return new Http("http://localhost:" + port);
  }

  /** A browser without JavaScript (cookies, CSRF tokens) on the shared context, signed out. */
  protected FormClient formClient() {
    return new FormClient("http://localhost:" + port);
  }

  /** A browser without JavaScript on the shared context, signed in as the admin. */
  protected FormClient signedInAdmin() {
    return formClient().signedIn("admin", ADMIN_PASSWORD);
  }

  public static int freePort() {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The shared database's folder, deleted when the JVM exits (after Spring's shutdown hook stopped the database). */
  private static Path tempDir() {
    try {
      Path dir = Files.createTempDirectory("perftrack-test-db");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteWhenStopped(dir), "perftrack-test-db-cleanup"));
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Deletes the database folder once its postmaster is gone: the context's shutdown hook stops it at the same time
   * as this one runs. A postmaster still running after a minute keeps its folder.
   */
  static void deleteWhenStopped(Path dir) {
    Path pid = dir.resolve("postmaster.pid");
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    try {
      while (Files.exists(pid) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (Files.exists(pid)) {
      return;
    }
    try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // a folder that cannot be walked stays; nothing else depends on it
    }
  }
}
