package org.perftrack.server.db;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import javax.sql.DataSource;
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

  /** Stopped by Spring after the web server and the outbox (beans that use the DataSource go first). */
  @Bean(destroyMethod = "close")
  EmbeddedPostgresServer embeddedPostgres(EmbeddedDbProperties properties) throws IOException {
    try {
      return EmbeddedPostgresServer.start(properties);
    } catch (IllegalStateException e) {
      if (e.getMessage() == null || !e.getMessage().contains("binaries")) {
        throw e;
      }
      throw new IllegalStateException("This jar carries no embedded PostgreSQL for " + System.getProperty("os.name")
          + " " + System.getProperty("os.arch") + ": set spring.datasource.url to a PostgreSQL server, or build "
          + "the jar with -Pembedded-db-all (README, \"Which platforms the jar runs on\")", e);
    }
  }

  @Bean(destroyMethod = "close")
  DataSource dataSource(EmbeddedPostgresServer postgres, EmbeddedDbProperties properties) {
    HikariDataSource ds = new HikariDataSource();
    ds.setJdbcUrl(postgres.jdbcUrl());
    ds.setUsername(postgres.username());
    ds.setPassword(postgres.password());
    ds.setPoolName("perftrack-embedded");
    ds.setMaximumPoolSize(properties.poolSize());
    // a lost database answers 503 in seconds instead of holding requests for Hikari's default 30 s
    ds.setConnectionTimeout(properties.connectionTimeout().toMillis());
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
