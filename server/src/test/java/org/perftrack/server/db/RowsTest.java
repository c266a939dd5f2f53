package org.perftrack.server.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.perftrack.server.detection.Direction;
import org.perftrack.server.detection.Regression;
import org.perftrack.server.detection.Verdict;
import org.perftrack.server.support.IntegrationTest;

/** Enum columns stored in their wire spelling come back as the enums, through a real PostgreSQL row. */
class RowsTest extends IntegrationTest {

  record Typed(String name, Direction direction, Verdict verdict, Regression.Status status, Regression.Kind kind) {}

  @Test
  void wireSpellingsBecomeTheEnums() {
    Typed t = jdbc.sql("SELECT 'a' AS name, 'higher_is_better' AS direction, 'insufficient-data' AS verdict,"
        + " 'wontfix' AS status, 'improvement' AS kind").query(Rows.of(Typed.class)).single();
    assertThat(t).isEqualTo(new Typed("a", Direction.HIGHER_IS_BETTER, Verdict.INSUFFICIENT_DATA,
        Regression.Status.WONTFIX, Regression.Kind.IMPROVEMENT));
  }

  @Test
  void aNullColumnIsNullAndAnUnknownSpellingFails() {
    Typed t = jdbc.sql("SELECT 'b' AS name, 'lower_is_better' AS direction, NULL AS verdict, 'open' AS status,"
        + " 'regression' AS kind").query(Rows.of(Typed.class)).single();
    assertThat(t.verdict()).isNull();
    assertThat(t.direction()).isEqualTo(Direction.LOWER_IS_BETTER);
    assertThatThrownBy(() -> jdbc.sql("SELECT 'c' AS name, 'sideways' AS direction, NULL AS verdict,"
        + " 'open' AS status, 'regression' AS kind").query(Rows.of(Typed.class)).single())
        .hasStackTraceContaining("SIDEWAYS");
  }
}
