package org.perftrack.server.db;

import java.util.Arrays;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.MigrationVersion;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.stereotype.Component;

/**
 * Migrates strictly in order, with one exception kept for the first release: it shipped V11 after some
 * data directories had already applied V20. Such a directory gets its missing migrations up to V20 out
 * of order first; anything after V20 that is missing below an applied one stops start-up (Flyway's
 * validation), as it should.
 */
@Component
public class FirstReleaseMigrations implements FlywayMigrationStrategy {

  static final MigrationVersion FIRST_RELEASE = MigrationVersion.fromVersion("20");

  @Override
  public void migrate(Flyway flyway) {
    if (missesFirstReleaseMigration(flyway)) {
      Flyway.configure().configuration(flyway.getConfiguration()).outOfOrder(true).target(FIRST_RELEASE)
          .load().migrate();
    }
    flyway.migrate();
  }

  private static boolean missesFirstReleaseMigration(Flyway flyway) {
    return Arrays.stream(flyway.info().all()).anyMatch(FirstReleaseMigrations::ignoredUpToFirstRelease);
  }

  private static boolean ignoredUpToFirstRelease(MigrationInfo m) {
    return m.getState() == MigrationState.IGNORED && m.getVersion() != null
        && m.getVersion().compareTo(FIRST_RELEASE) <= 0;
  }
}
