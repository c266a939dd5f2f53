package org.perftrack.server.db;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * The database a command of the server jar ({@code backup}, {@code restore}) works on, chosen as the server
 * chooses it: {@code spring.datasource.url} (with its user name and password), or else the embedded PostgreSQL of
 * {@code perftrack.embedded-db.dir}. An embedded database that a running server has open is used through that
 * server's PostgreSQL; otherwise the command starts it, and stops it when done.
 */
public final class CommandDatabase implements AutoCloseable {

  private final DataSource dataSource;
  private final String description;
  private final EmbeddedPostgresServer started;

  private CommandDatabase(DataSource dataSource, String description, EmbeddedPostgresServer started) {
    this.dataSource = dataSource;
    this.description = description;
    this.started = started;
  }

  /**
   * @param existing the embedded database must exist already (a backup); a restore may create it
   */
  public static CommandDatabase open(Environment env, boolean existing) throws IOException {
    String url = env.getProperty("spring.datasource.url");
    if (url != null && !url.isBlank()) {
      return new CommandDatabase(new SimpleDriverDataSource(new org.postgresql.Driver(), url,
          env.getProperty("spring.datasource.username"), env.getProperty("spring.datasource.password")), url, null);
    }
    EmbeddedDbProperties props = Binder.get(env).bindOrCreate("perftrack.embedded-db", EmbeddedDbProperties.class);
    Path dir = props.dir().toAbsolutePath().normalize();
    if (existing && !Files.isRegularFile(dir.resolve("postgresql.conf"))) {
      throw new IllegalArgumentException("there is no embedded database in " + dir
          + " (set perftrack.embedded-db.dir to its folder, or spring.datasource.url to a PostgreSQL server)");
    }
    Optional<Integer> serving = OrphanPostmaster.portOfServer(dir);
    if (serving.isPresent()) {
      String jdbcUrl = "jdbc:postgresql://127.0.0.1:" + serving.get() + "/postgres";
      return new CommandDatabase(new SimpleDriverDataSource(new org.postgresql.Driver(), jdbcUrl,
          EmbeddedPostgresServer.USER, new DbPassword(dir).value()),
          "the embedded database in " + dir + " (open by the running server)", null);
    }
    EmbeddedPostgresServer pg = EmbeddedPostgresServer.start(props);
    return new CommandDatabase(new SimpleDriverDataSource(new org.postgresql.Driver(), pg.jdbcUrl(), pg.username(),
        pg.password()), "the embedded database in " + dir, pg);
  }

  public DataSource dataSource() {
    return dataSource;
  }

  /** Where the data is, for the command's output (never a password). */
  public String description() {
    return description;
  }

  @Override
  public void close() {
    if (started != null) {
      started.close();
    }
  }
}
