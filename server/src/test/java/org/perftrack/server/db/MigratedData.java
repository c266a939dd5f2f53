package org.perftrack.server.db;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.flywaydb.core.Flyway;

/**
 * An embedded database's data directory as a server's first start leaves it before the application writes anything:
 * initdb done, password stored, every migration applied. It is made once per test JVM (the server's own
 * {@link EmbeddedPostgresServer} and {@link FirstReleaseMigrations} on the migrations module) and copied for each
 * child server or in-process application that needs a database of its own, which then starts as on a restart: no
 * initdb, and Flyway finds nothing to do. The application itself (admin, bootstrap token) starts from nothing on
 * each copy. A test of the first start itself ({@code StartupLogTest}) or of migrating an old database
 * ({@code UpgradeFromFirstReleaseTest}) does not use it.
 */
public final class MigratedData {

  private static Path template;

  private MigratedData() {}

  /** {@code data} (which must not exist yet) as a copy of the migrated directory; returns {@code data}. */
  public static Path copyTo(Path data) {
    Path from = template();
    try (Stream<Path> files = Files.walk(from)) {
      Files.createDirectories(data.toAbsolutePath().getParent());
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.copy(f, data.resolve(from.relativize(f).toString()), StandardCopyOption.COPY_ATTRIBUTES);
      }
      return data;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static synchronized Path template() {
    if (template == null) {
      template = migrate();
    }
    return template;
  }

  /** initdb and every migration in a folder deleted when the JVM exits; the database is stopped again. */
  private static Path migrate() {
    try {
      Path dir = Files.createTempDirectory("perftrack-migrated-");
      Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir), "perftrack-migrated-cleanup"));
      Path data = dir.resolve("data");
      EmbeddedDbProperties props = new EmbeddedDbProperties(data, 0, 2, false, Duration.ofSeconds(30));
      try (EmbeddedPostgresServer db = EmbeddedPostgresServer.start(props)) {
        Flyway flyway = Flyway.configure().dataSource(db.jdbcUrl(), db.username(), db.password())
            .locations("classpath:db/migration").load();
        new FirstReleaseMigrations().migrate(flyway);
      }
      awaitStopped(data);
      return data;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** pg_ctl's stop may return before the postmaster is gone; a copy must not carry its postmaster.pid. */
  private static void awaitStopped(Path data) {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (Files.exists(data.resolve("postmaster.pid"))) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the migrated template's PostgreSQL did not stop within 60 s: " + data);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  private static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // a temporary folder left behind is not a test failure
    }
  }
}
