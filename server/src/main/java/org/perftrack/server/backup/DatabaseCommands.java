package org.perftrack.server.backup;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Set;
import org.perftrack.server.db.CommandDatabase;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * {@code java -jar perftrack-server.jar backup FILE} and {@code restore FILE}, configured like the server (the same
 * properties, arguments and environment variables choose the database). Exit codes: 0 done, 1 failed or refused,
 * 2 usage.
 */
public final class DatabaseCommands {

  static final Set<String> COMMANDS = Set.of("backup", "restore");

  private DatabaseCommands() {}

  public static boolean handles(String[] args) {
    return args.length > 0 && COMMANDS.contains(args[0]);
  }

  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length < 2 || args[1].startsWith("-")) {
      err.println("usage: java -jar perftrack-server.jar " + (args.length > 0 ? args[0] : "backup|restore")
          + " FILE [--spring.datasource.url=… | --perftrack.embedded-db.dir=…]");
      return 2;
    }
    boolean backup = args[0].equals("backup");
    Path file = Path.of(args[1]).toAbsolutePath();
    if (!backup && !Files.isRegularFile(file)) {
      err.println("restore: no file " + file);
      return 1;
    }
    long start = System.nanoTime();
    try (ConfigurableApplicationContext settings = settings(Arrays.copyOfRange(args, 2, args.length));
        CommandDatabase db = CommandDatabase.open(settings.getEnvironment(), backup)) {
      int exit = backup ? backup(db, file, out) : restore(db, file, out);
      out.printf("%s took %.1f s%n", args[0], (System.nanoTime() - start) / 1e9);
      return exit;
    } catch (Restore.Refused | IllegalArgumentException e) {
      err.println(args[0] + ": " + e.getMessage());
      return 1;
    } catch (IOException | SQLException | RuntimeException e) {
      err.println(args[0] + " failed: " + e);
      return 1;
    }
  }

  /**
   * Writes to a new file of its own beside {@code file} (made with a random name, never one that exists, readable
   * by its owner only, opened without following a link) and renames it to {@code file} when complete: the backup
   * holds password and token hashes and subscribers' addresses, and a file another local user planted (a
   * {@code FILE.partial}, a link) is neither written through nor reused.
   */
  private static int backup(CommandDatabase db, Path file, PrintStream out) throws IOException, SQLException {
    Path tmp = ownerOnlyFile(file);
    Backup.Written written;
    try (Connection c = db.dataSource().getConnection();
        OutputStream o = new java.io.BufferedOutputStream(Files.newOutputStream(tmp, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS), 1 << 16)) {
      written = Backup.write(c, o);
    } catch (IOException | SQLException | RuntimeException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    out.printf("backup: %,d rows of %d tables from %s as of %s in %s (%,d bytes)%n", written.totalRows(),
        written.rows().size(), db.description(), written.takenAt(), file, Files.size(file));
    return 0;
  }

  private static Path ownerOnlyFile(Path file) throws IOException {
    boolean posix = file.getFileSystem().supportedFileAttributeViews().contains("posix");
    FileAttribute<?>[] ownerOnly = posix
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
        : new FileAttribute<?>[0];
    return Files.createTempFile(file.toAbsolutePath().getParent(), file.getFileName() + ".", ".partial", ownerOnly);
  }

  private static int restore(CommandDatabase db, Path file, PrintStream out) throws IOException, SQLException {
    try (InputStream in = new java.io.BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
      Restore.Restored restored = Restore.restore(db.dataSource(), in);
      out.printf("restore: %,d rows of %d tables (schema version %s) from %s into %s%n", restored.totalRows(),
          restored.rows().size(), restored.schemaVersion(), file, db.description());
    }
    return 0;
  }

  /** The server's settings (application.properties, arguments, environment) without starting the server. */
  private static ConfigurableApplicationContext settings(String[] args) {
    return new SpringApplicationBuilder(Settings.class).web(WebApplicationType.NONE).bannerMode(Banner.Mode.OFF)
        .logStartupInfo(false).properties("logging.level.root=WARN").run(args);
  }

  @Configuration(proxyBeanMethods = false)
  static class Settings {}
}
