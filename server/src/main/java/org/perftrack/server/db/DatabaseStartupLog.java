package org.perftrack.server.db;

import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** One structured line at start-up that says which database perftrack uses and where. */
@Component
class DatabaseStartupLog {

  private static final Logger log = LoggerFactory.getLogger(DatabaseStartupLog.class);

  private final JdbcClient jdbc;
  private final DataSource dataSource;
  private final ObjectProvider<EmbeddedPostgresServer> embedded;
  private final ReplicaProperties replica;
  private final org.springframework.core.env.Environment env;

  DatabaseStartupLog(JdbcClient jdbc, DataSource dataSource, ObjectProvider<EmbeddedPostgresServer> embedded,
      ReplicaProperties replica, org.springframework.core.env.Environment env) {
    this.jdbc = jdbc;
    this.dataSource = dataSource;
    this.embedded = embedded;
    this.replica = replica;
    this.env = env;
  }

  @EventListener(ApplicationReadyEvent.class)
  void logDatabase() {
    String version = jdbc.sql("SHOW server_version").query(String.class).single();
    var pg = embedded.getIfAvailable();
    if (pg != null) {
      log.info("database=embedded-postgresql version={} dir={} port={} pid={}",
          version, pg.dir(), pg.port(), pg.postmaster() == null ? "?" : pg.postmaster().pid());
    } else {
      String url = dataSource instanceof com.zaxxer.hikari.HikariDataSource h ? h.getJdbcUrl()
          : env.getProperty("spring.datasource.url");
      if (replica.replicaUrl() == null) {
        log.info("database=postgresql version={} url={}", version, url);
      } else {
        log.info("database=postgresql version={} url={} replica={}", version, url, replica.replicaUrl());
      }
    }
  }
}
