package org.perftrack.server.web;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Size limits on input.
 *
 * @param maxBodyBytes the largest API request body accepted (and the longest line of an import)
 * @param maxImportBytes the largest bulk import ({@code POST /api/v1/runs:import}), as sent and after gunzip
 * @param maxImportLines the most lines one import reads; the rest are reported as not read
 * @param maxBodies the most requests with a body read at once (each holds a worker thread while its client
 *     sends; keep it well under {@code server.tomcat.threads.max}, 200 by default)
 * @param maxBodiesPerAddress the most requests with a body read at once from one client address
 */
@ConfigurationProperties("perftrack.limits")
@Validated
public record LimitsProperties(
    @DefaultValue("16MB") @NotNull DataSize maxBodyBytes,
    @DefaultValue("1GB") @NotNull DataSize maxImportBytes,
    @DefaultValue("1000000") @Min(1) long maxImportLines,
    @DefaultValue("100") @Min(1) int maxBodies,
    @DefaultValue("32") @Min(1) int maxBodiesPerAddress) {

  public LimitsProperties {
    if (maxBodyBytes != null && maxBodyBytes.toBytes() <= 0) {
      throw new IllegalArgumentException("perftrack.limits.max-body-bytes must be positive, got " + maxBodyBytes);
    }
    if (maxImportBytes != null && maxImportBytes.toBytes() <= 0) {
      throw new IllegalArgumentException("perftrack.limits.max-import-bytes must be positive, got " + maxImportBytes);
    }
  }

  /** The body limit of a request to {@code path}. */
  public long bodyLimit(String path) {
    return path.endsWith("/runs:import") ? maxImportBytes.toBytes() : maxBodyBytes.toBytes();
  }
}
