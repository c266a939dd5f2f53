package org.perftrack.server.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throw-away PostgreSQL server of the operating system's own packages (Debian's {@code postgresql}), as an
 * operator runs one: its own cluster in a temporary folder, on a free loopback port, stopped and deleted by
 * {@link #close()}. PostgreSQL refuses to run as root, so under root (CI) its programs run as the {@code postgres}
 * user the package creates. Authentication is {@code trust} on 127.0.0.1 only.
 */
public final class DebianPostgres implements AutoCloseable {

  public static final String USER = "postgres";

  private final Path bin;
  private final Path dir;
  private final int port;

  private DebianPostgres(Path bin, Path dir, int port) {
    this.bin = bin;
    this.dir = dir;
    this.port = port;
  }

  /** A new primary (WAL for streaming replicas is PostgreSQL's default). */
  public static DebianPostgres start() {
    Path bin = bin();
    Path dir = tempDir("perftrack-pg-");
    run(bin.resolve("initdb").toString(), "-D", dir.resolve("data").toString(), "-U", USER, "-A", "trust",
        "--no-sync", "-E", "UTF8", "--locale=C");
    DebianPostgres pg = new DebianPostgres(bin, dir, IntegrationTest.freePort());
    pg.configure();
    pg.pgCtl("start");
    return pg;
  }

  /** A hot standby of this server, streaming from it ({@code pg_basebackup -R}), started. */
  public DebianPostgres standby() {
    Path standbyDir = tempDir("perftrack-pg-standby-");
    run(bin.resolve("pg_basebackup").toString(), "-h", "127.0.0.1", "-p", Integer.toString(port), "-U", USER,
        "-D", standbyDir.resolve("data").toString(), "-R", "-X", "stream", "--no-sync");
    DebianPostgres standby = new DebianPostgres(bin, standbyDir, IntegrationTest.freePort());
    standby.configure();
    standby.pgCtl("start");
    return standby;
  }

  public int port() {
    return port;
  }

  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  public Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), USER, "");
  }

  public void createDatabase(String name) {
    try (Connection c = connect("postgres"); var s = c.createStatement()) {
      s.execute("CREATE DATABASE " + name);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    try {
      pgCtl("stop", "-m", "immediate");
    } finally {
      deleteTree(dir);
    }
  }

  private void configure() {
    try {
      Files.writeString(dir.resolve("data/postgresql.auto.conf"), String.join("\n",
          "port = " + port,
          "listen_addresses = '127.0.0.1'",
          "unix_socket_directories = '" + dir + "'",
          "fsync = off",
          "shared_buffers = 16MB",
          "max_connections = 40",
          ""), java.nio.file.StandardOpenOption.APPEND);
      Files.writeString(dir.resolve("data/pg_hba.conf"), """
          local all all trust
          host all all 127.0.0.1/32 trust
          host replication all 127.0.0.1/32 trust
          """);
      chownToPostgres(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void pgCtl(String... args) {
    List<String> cmd = new ArrayList<>(List.of(bin.resolve("pg_ctl").toString(), "-D", dir.resolve("data").toString(),
        "-l", dir.resolve("log").toString(), "-w", "-t", "120"));
    cmd.addAll(List.of(args));
    run(cmd.toArray(String[]::new));
  }

  /** Debian's newest installed PostgreSQL: /usr/lib/postgresql/VERSION/bin. */
  private static Path bin() {
    Path root = Path.of("/usr/lib/postgresql");
    try (Stream<Path> versions = Files.isDirectory(root) ? Files.list(root) : Stream.empty()) {
      return versions.map(v -> v.resolve("bin")).filter(b -> Files.isExecutable(b.resolve("initdb")))
          .max(Comparator.comparing(DebianPostgres::majorVersion))
          .orElseThrow(() -> new IllegalStateException("no PostgreSQL server in /usr/lib/postgresql: install Debian's "
              + "postgresql package (.ci/run does)"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int majorVersion(Path bin) {
    return Integer.parseInt(bin.getParent().getFileName().toString().replaceAll("\\D.*", ""));
  }

  private static boolean root() {
    return "root".equals(System.getProperty("user.name"));
  }

  private static Path tempDir(String prefix) {
    try {
      Path dir = Files.createTempDirectory(prefix);
      chownToPostgres(dir);
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void chownToPostgres(Path dir) {
    if (root()) {
      exec(List.of("chown", "-R", USER + ":", dir.toString()));
    }
  }

  /** Runs a PostgreSQL program, as the postgres user under root; fails with its output. */
  private static void run(String... cmd) {
    List<String> full = new ArrayList<>();
    if (root()) {
      full.addAll(List.of("runuser", "-u", USER, "--"));
    }
    full.addAll(List.of(cmd));
    exec(full);
  }

  private static void exec(List<String> cmd) {
    try {
      Path out = Files.createTempFile("perftrack-pg-cmd-", ".log");
      try {
        Process p = new ProcessBuilder(cmd).directory(Path.of("/tmp").toFile()).redirectErrorStream(true)
            .redirectOutput(out.toFile()).start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          throw new IllegalStateException(String.join(" ", cmd) + " did not finish in 180 s");
        }
        if (p.exitValue() != 0) {
          throw new IllegalStateException(String.join(" ", cmd) + " exited with " + p.exitValue() + ":\n"
              + Files.readString(out));
        }
      } finally {
        Files.deleteIfExists(out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary folder left behind is not a test failure
    }
  }
}
