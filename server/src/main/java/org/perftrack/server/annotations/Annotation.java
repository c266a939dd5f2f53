package org.perftrack.server.annotations;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Instant;
import java.util.Locale;

/**
 * One note: at a time ({@code at}) or a version of a product; for every product ({@code product} null), a product,
 * a machine, or a product on a machine. {@code subject} names what changed for an environment note ("antivirus").
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Annotation(long id, Kind kind, Instant at, String product, String version, String machine, String text,
    String link, String subject, String runId, String createdBy, Instant createdAt) {

  /** Written by a person, or by the server when a machine's environment changed. */
  public enum Kind {
    NOTE, ENVIRONMENT;

    @JsonValue
    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Where it applies, as the pages say it: "all products", "cygwin", "xp-lab-01", "cygwin on xp-lab-01". */
  public String scope() {
    if (product == null) {
      return machine == null ? "all products" : machine;
    }
    return machine == null ? product : product + " on " + machine;
  }

  /** When, as the pages say it: "2026-12-07 14:02 UTC" or "version 1.5.24-2". */
  public String when() {
    return at == null ? "version " + version : Times.minute(at);
  }
}
