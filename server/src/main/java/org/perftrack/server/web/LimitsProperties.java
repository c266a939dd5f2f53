package org.perftrack.server.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Size limits on input.
 *
 * @param maxBodyBytes the largest API request body accepted (and the longest line of an import)
 * @param maxImportBytes the largest bulk import ({@code POST /api/v1/runs:import}), as sent and after gunzip
 * @param maxImportLines the most lines one import reads; the rest are reported as not read
 */
@ConfigurationProperties("perftrack.limits")
public record LimitsProperties(
    @DefaultValue("16MB") DataSize maxBodyBytes,
    @DefaultValue("1GB") DataSize maxImportBytes,
    @DefaultValue("1000000") long maxImportLines) {

  /** The body limit of a request to {@code path}. */
  public long bodyLimit(String path) {
    return path.endsWith("/runs:import") ? maxImportBytes.toBytes() : maxBodyBytes.toBytes();
  }
}
