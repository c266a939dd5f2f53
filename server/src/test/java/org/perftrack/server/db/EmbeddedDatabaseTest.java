package org.perftrack.server.db;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.perftrack.server.support.IntegrationTest;

class EmbeddedDatabaseTest extends IntegrationTest {

  @Test
  void theEmbeddedDatabaseIsRealPostgreSql() {
    assertThat(jdbc.sql("SELECT version()").query(String.class).single()).startsWith("PostgreSQL ");
    // PostgreSQL-only features the schema relies on
    assertThat(jdbc.sql("SELECT (ARRAY[3.0, 1.0, 2.0]::float8[])[2]").query(Double.class).single()).isEqualTo(1.0);
    assertThat(jdbc.sql("SELECT '{\"a\":1}'::jsonb ->> 'a'").query(String.class).single()).isEqualTo("1");
  }

  @Test
  void theHealthEndpointIsUpWithTheDatabase() {
    var r = http().get("/actuator/health");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("status").asString()).isEqualTo("UP");
  }

  @Test
  void flywayAppliedTheMigrationsModule() {
    assertThat(jdbc.sql("SELECT count(*) FROM flyway_schema_history WHERE success AND version = '1'")
        .query(Long.class).single()).isEqualTo(1);
  }
}
