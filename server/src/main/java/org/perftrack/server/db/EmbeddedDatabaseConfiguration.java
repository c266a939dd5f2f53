package org.perftrack.server.db;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * With no {@code spring.datasource.url}, perftrack runs on a real PostgreSQL that it starts itself
 * (zonky's binaries from Maven Central), with its data kept in {@code perftrack.embedded-db.dir}
 * across restarts. With a URL, Boot's own DataSource auto-configuration takes over.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedDatabaseConfiguration.NoDatasourceUrl.class)
class EmbeddedDatabaseConfiguration {

  private static final Logger log = LoggerFactory.getLogger(EmbeddedDatabaseConfiguration.class);

  @Bean(destroyMethod = "close")
  EmbeddedPostgres embeddedPostgres(EmbeddedDbProperties properties) throws IOException {
    Path dir = properties.dir().toAbsolutePath().normalize();
    boolean existing = Files.isRegularFile(dir.resolve("PG_VERSION"));
    Files.createDirectories(dir);
    log.info("{} embedded PostgreSQL in {}", existing ? "Reusing" : "Initialising", dir);
    try {
      return start(dir, properties);
    } catch (IllegalStateException e) {
      if (e.getMessage() == null || !e.getMessage().contains("binaries")) {
        throw e;
      }
      throw new IllegalStateException("This jar carries no embedded PostgreSQL for " + System.getProperty("os.name")
          + " " + System.getProperty("os.arch") + ": set spring.datasource.url to a PostgreSQL server, or build "
          + "the jar with -Pembedded-db-all (README, \"Which platforms the jar runs on\")", e);
    }
  }

  private static EmbeddedPostgres start(Path dir, EmbeddedDbProperties properties) throws IOException {
    return EmbeddedPostgres.builder()
        .setDataDirectory(dir)
        .setCleanDataDirectory(false)
        .setPort(properties.port())
        // zonky's defaults are made for throw-away test databases; perftrack keeps real data
        .setServerConfig("fsync", properties.durable() ? "on" : "off")
        .setServerConfig("synchronous_commit", properties.durable() ? "on" : "off")
        .setServerConfig("full_page_writes", properties.durable() ? "on" : "off")
        .start();
  }

  @Bean(destroyMethod = "close")
  DataSource dataSource(EmbeddedPostgres postgres, EmbeddedDbProperties properties) {
    HikariDataSource ds = new HikariDataSource();
    ds.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
    ds.setUsername("postgres");
    ds.setPoolName("perftrack-embedded");
    ds.setMaximumPoolSize(properties.poolSize());
    return ds;
  }

  static final class NoDatasourceUrl implements Condition {
    @Override
    public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
      String url = context.getEnvironment().getProperty("spring.datasource.url");
      return url == null || url.isBlank();
    }
  }
}
