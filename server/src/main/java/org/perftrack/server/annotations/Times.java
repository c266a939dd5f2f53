package org.perftrack.server.annotations;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import org.perftrack.server.problems.InvalidInput;

/** How the annotations read and write times: ISO-8601 with a zone from the API, UTC minutes on the pages. */
final class Times {

  private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
      .withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);

  /** Notes outside these years are a typo (a time of a run is checked alike). */
  static final Instant EARLIEST = Instant.parse("1990-01-01T00:00:00Z");

  private Times() {}

  static String minute(Instant at) {
    return MINUTE.format(at);
  }

  static String day(Instant at) {
    return DAY.format(at);
  }

  /**
   * A time given as {@code 2026-12-07T14:02:00Z} (or with an offset), or as the page's {@code 2026-12-07T14:02}
   * (UTC); null when blank; a 400 naming {@code field} otherwise.
   */
  static Instant parse(String field, String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    String t = text.strip();
    Instant at;
    try {
      at = OffsetDateTime.parse(t).toInstant();
    } catch (DateTimeParseException e) {
      try {
        at = LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
      } catch (DateTimeParseException again) {
        throw new InvalidInput(field, "must be a time like 2026-12-07T14:02:00Z");
      }
    }
    if (at.isBefore(EARLIEST) || at.isAfter(Instant.now().plus(366, ChronoUnit.DAYS))) {
      throw new InvalidInput(field, "must be between 1990 and a year from now");
    }
    return at;
  }
}
