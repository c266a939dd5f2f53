package org.perftrack.server.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded PostgreSQL of one data directory, closed to other local users and kept running.
 *
 * <p>zonky's defaults suit throw-away test databases: {@code trust} authentication and a socket in
 * the world-writable {@code /tmp}, which lets any local user in as superuser. perftrack's instance has a
 * generated password (in the data directory, mode 0600), password authentication, its socket inside
 * the data directory (0700) and listens on 127.0.0.1 only. A postmaster left running by a server that
 * was killed is stopped before the next start ({@link OrphanPostmaster}); one that dies under a running
 * server is started again by a watchdog, on the same port, so the pool reconnects on its own. No JVM
 * shutdown hook: Spring stops it after the web server and the outbox.
 *
 * <p>Size: {@code startPostgres} (about 45 lines) covers the three start cases (a fresh directory, a reused one, one
 * from before the stored password) in the order they must run.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedPostgresServer.class);
  static final String USER = "postgres";
  /** Unix sockets have a 107-byte path limit; a longer data directory gets no socket (TCP only). */
  private static final int MAX_SOCKET_PATH = 100;

  private final EmbeddedDbProperties props;
  private final Path dir;
  private final DbPassword password;
  private final ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "perftrack-embedded-db-watchdog");
    t.setDaemon(true);
    return t;
  });
  private volatile EmbeddedPostgres postgres;
  private volatile ProcessHandle postmaster;
  private volatile boolean closed;
  private int port;

  private EmbeddedPostgresServer(EmbeddedDbProperties props, Path dir) {
    this.props = props;
    this.dir = dir;
    this.password = new DbPassword(dir);
  }

  static EmbeddedPostgresServer start(EmbeddedDbProperties props) throws IOException {
    Path dir = props.dir().toAbsolutePath().normalize();
    Files.createDirectories(dir);
    OrphanPostmaster.stopIfAny(dir);
    EmbeddedPostgresServer server = new EmbeddedPostgresServer(props, dir);
    server.port = props.port();
    server.startPostgres();
    server.port = server.postgres.getPort();
    server.watchdog.scheduleWithFixedDelay(server::restartIfDead, 1, 1, TimeUnit.SECONDS);
    return server;
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  public String username() {
    return USER;
  }

  public String password() {
    return password.value();
  }

  public int port() {
    return port;
  }

  public Path dir() {
    return dir;
  }

  /** The running postmaster (for tests that kill it, and for the log). */
  public ProcessHandle postmaster() {
    return postmaster;
  }

  private synchronized void startPostgres() throws IOException {
    boolean fresh = !Files.isRegularFile(dir.resolve("postgresql.conf"));
    boolean legacy = !fresh && !password.isStored();
    log.info("{} embedded PostgreSQL in {}", fresh ? "Initialising" : "Reusing", dir);
    EmbeddedPostgres.Builder builder = builder();
    Path pwfile = null;
    if (fresh) {
      pwfile = password.writeInitdbFile();
      builder.setLocaleConfig("auth-host", "scram-sha-256")
          .setLocaleConfig("auth-local", "scram-sha-256")
          .setLocaleConfig("pwfile", pwfile.toString());
    }
    builder.setDataDirectoryCustomizer(d -> {
      if (!legacy) {
        password.store();
        writeHba();
      }
    });
    try {
      postgres = builder.start();
    } finally {
      if (pwfile != null) {
        Files.deleteIfExists(pwfile);
      }
    }
    if (legacy) {
      closeTrustAuthentication();
    }
    postmaster = OrphanPostmaster.running(dir).orElse(null);
  }

  /** The server's settings: on 127.0.0.1 and a private socket only, with passwords, as durable as configured. */
  private EmbeddedPostgres.Builder builder() {
    return EmbeddedPostgres.builder()
        .setDataDirectory(dir)
        .setCleanDataDirectory(false)
        .setRegisterShutdownHook(false)
        .setPort(port)
        .setPGStartupWait(java.time.Duration.ofSeconds(60))
        .setConnectConfig("PGHOST", "127.0.0.1")
        .setConnectConfig("password", password.value())
        .setServerConfig("listen_addresses", "127.0.0.1")
        .setServerConfig("unix_socket_directories", socketDirectory())
        .setServerConfig("unix_socket_permissions", "0700")
        .setServerConfig("password_encryption", "scram-sha-256")
        // zonky's defaults are made for throw-away test databases; perftrack keeps real data
        .setServerConfig("fsync", props.durable() ? "on" : "off")
        .setServerConfig("synchronous_commit", props.durable() ? "on" : "off")
        .setServerConfig("full_page_writes", props.durable() ? "on" : "off");
  }

  /** A data directory made before passwords: set one, then turn {@code trust} off. */
  private void closeTrustAuthentication() throws IOException {
    log.warn("embedded PostgreSQL in {} allowed local logins without a password; setting one", dir);
    try (var c = DriverManager.getConnection(jdbcUrlOf(postgres.getPort()), USER, password.value());
        var s = c.createStatement()) {
      s.execute("ALTER ROLE postgres PASSWORD '" + password.value() + "'");
      password.store();
      writeHba();
      s.execute("SELECT pg_reload_conf()");
    } catch (SQLException e) {
      throw new IOException("could not set the embedded database's password", e);
    }
  }

  private static String jdbcUrlOf(int port) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
  }

  private void writeHba() {
    try {
      Files.writeString(dir.resolve("pg_hba.conf"), """
          # written by perftrack at every start: password authentication, loopback only
          local all all scram-sha-256
          host  all all 127.0.0.1/32 scram-sha-256
          host  all all ::1/128 scram-sha-256
          """);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Quoted for the shell that {@code pg_ctl} starts {@code postgres} through. */
  private String socketDirectory() {
    String path = dir.toString();
    return path.length() > MAX_SOCKET_PATH || path.contains("'") ? "''" : "'" + path + "'";
  }

  /** Runs every second: a postmaster that died (killed, crashed) is started again on the same port. */
  private void restartIfDead() {
    ProcessHandle pm = postmaster;
    if (closed || (pm != null && pm.isAlive())) {
      return;
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      log.error("embedded PostgreSQL in {} is not running (pid {}); starting it again", dir,
          pm == null ? "?" : pm.pid());
      try {
        closeQuietly();
        OrphanPostmaster.awaitBackendsGone(dir);
        OrphanPostmaster.freshLockFile(dir);
        startPostgres();
        log.info("embedded PostgreSQL in {} is running again (pid {})", dir,
            postmaster == null ? "?" : postmaster.pid());
      } catch (IOException | RuntimeException e) {
        postmaster = null;
        log.warn("embedded PostgreSQL in {} did not start yet, trying again: {}", dir, e.toString());
      }
    }
  }

  private void closeQuietly() {
    EmbeddedPostgres pg = postgres;
    if (pg != null) {
      try {
        pg.close();
      } catch (IOException | RuntimeException e) {
        log.debug("closing the stopped embedded PostgreSQL: {}", e.toString());
      }
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    watchdog.shutdownNow();
    EmbeddedPostgres pg = postgres;
    if (pg != null) {
      try {
        pg.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
