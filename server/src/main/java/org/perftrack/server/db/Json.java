package org.perftrack.server.db;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.cfg.DateTimeFeature;

/** The server's one JSON mapper configuration outside Spring MVC: jsonb columns, stored bodies, tests. */
public final class Json {

  public static final JsonMapper MAPPER = JsonMapper.builder()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .disable(DateTimeFeature.WRITE_DATES_AS_TIMESTAMPS)
      .build();

  private Json() {}
}
