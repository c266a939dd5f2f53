package org.perftrack.agent.upload;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The agent's JSON mapper: Jackson 2, because Jackson 3 needs Java 17 and the agent runs on Java 8.
 * It writes the wire model exactly as the server's Jackson 3 does (ISO instants, the annotated names).
 */
public final class WireJson {

  public static final ObjectMapper MAPPER = new ObjectMapper()
      .registerModule(new JavaTimeModule())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private WireJson() {}
}
